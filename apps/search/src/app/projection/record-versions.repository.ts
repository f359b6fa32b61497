import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface RecordVersion {
  id: string;
  ownerId: string;
  organisationId: string;
  /** When the event happened (its envelope's occurredAt). */
  occurredAt: string;
  deleted: boolean;
}

/** Which event each record's indexed state (or deletion) came from: search's own table. */
@Injectable()
export class RecordVersionsRepository {
  /**
   * Records the event as the record's newest, unless a newer one was applied already (then false:
   * the event is stale and must change nothing). Keeps the row locked until the transaction ends,
   * so events of one record are applied one at a time, in this order.
   */
  async advance(manager: EntityManager, version: RecordVersion): Promise<boolean> {
    const applied: unknown[] = await manager.query(
      `INSERT INTO search.record_versions (id, owner_id, organisation_id, occurred_at, deleted) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET owner_id = excluded.owner_id, organisation_id = excluded.organisation_id,
         occurred_at = excluded.occurred_at, deleted = excluded.deleted
       WHERE search.record_versions.occurred_at <= excluded.occurred_at
       RETURNING id`,
      [version.id, version.ownerId, version.organisationId, version.occurredAt, version.deleted],
    );
    return applied.length === 1;
  }

  /** The indexed records of an owner or of an organisation, locked until the transaction ends. */
  async lockLiveRecords(manager: EntityManager, of: { ownerId: string } | { organisationId: string }): Promise<string[]> {
    const [column, value] = 'ownerId' in of ? ['owner_id', of.ownerId] : ['organisation_id', of.organisationId];
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM search.record_versions WHERE ${column} = $1 AND NOT deleted ORDER BY id FOR UPDATE`,
      [value],
    );
    return rows.map((row) => row.id);
  }
}
