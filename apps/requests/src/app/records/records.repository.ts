import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PolicyAnswer } from '@dc/contracts';

/** What the requests service keeps of a catalogue record: who owns it, who may see it, its terms. */
export interface KnownRecord {
  id: string;
  name: string;
  ownerId: string;
  organisationId: string;
  policyId: string | null;
  access: 'RE' | 'OP';
  visibility: 'PR' | 'EV' | 'CU';
  sharedUserIds: string[];
  sharedOrganisationIds: string[];
  /** Seen by its owner alone (a derivative of data shared with them only): nobody else may request it. */
  ownerOnly: boolean;
  deleted: boolean;
}

export interface KnownPolicy {
  id: string;
  organisationId: string;
  name: string;
  fields: Array<{ topic: string; requirement: string; agree: PolicyAnswer }>;
  version: number;
}

interface RecordRow {
  id: string;
  name: string;
  owner_id: string;
  organisation_id: string;
  policy_id: string | null;
  access: KnownRecord['access'];
  visibility: KnownRecord['visibility'];
  shared_user_ids: string[];
  shared_organisation_ids: string[];
  owner_only: boolean;
  deleted: boolean;
}

const toRecord = (row: RecordRow): KnownRecord => ({
  id: row.id,
  name: row.name,
  ownerId: row.owner_id,
  organisationId: row.organisation_id,
  policyId: row.policy_id,
  access: row.access,
  visibility: row.visibility,
  sharedUserIds: row.shared_user_ids,
  sharedOrganisationIds: row.shared_organisation_ids,
  ownerOnly: row.owner_only,
  deleted: row.deleted,
});

/** The projections of the catalogue's records (record.*) and policies (policy.*). */
@Injectable()
export class RecordsRepository {
  /** Applies a record's state unless a newer event was applied already (occurredAt guard). */
  async applyRecord(manager: EntityManager, record: Omit<KnownRecord, 'deleted'>, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO requests.records (id, name, owner_id, organisation_id, policy_id, access, visibility, shared_user_ids, shared_organisation_ids, owner_only, deleted, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11, false, $10)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, owner_id = excluded.owner_id, organisation_id = excluded.organisation_id,
         policy_id = excluded.policy_id, access = excluded.access, visibility = excluded.visibility, shared_user_ids = excluded.shared_user_ids,
         shared_organisation_ids = excluded.shared_organisation_ids, owner_only = excluded.owner_only, deleted = false, occurred_at = excluded.occurred_at
       WHERE requests.records.occurred_at <= excluded.occurred_at AND NOT requests.records.deleted`,
      [
        record.id,
        record.name,
        record.ownerId,
        record.organisationId,
        record.policyId,
        record.access,
        record.visibility,
        record.sharedUserIds,
        record.sharedOrganisationIds,
        occurredAt,
        record.ownerOnly,
      ],
    );
  }

  /**
   * A deleted record keeps its name (its requests still show it) and can no longer be requested. A
   * deletion that arrives before the record's other events leaves a tombstone, so they change nothing.
   */
  async deleteRecord(manager: EntityManager, id: string, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO requests.records (id, name, owner_id, organisation_id, access, visibility, deleted, occurred_at) VALUES ($1, '', '', '', 'RE', 'PR', true, $2)
       ON CONFLICT (id) DO UPDATE SET deleted = true, occurred_at = GREATEST(requests.records.occurred_at, excluded.occurred_at)`,
      [id, occurredAt],
    );
  }

  async findRecord(manager: EntityManager, id: string): Promise<KnownRecord | null> {
    const rows: RecordRow[] = await manager.query('SELECT * FROM requests.records WHERE id = $1', [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async records(manager: EntityManager, ids: string[]): Promise<Map<string, KnownRecord>> {
    if (ids.length === 0) return new Map();
    const rows: RecordRow[] = await manager.query('SELECT * FROM requests.records WHERE id = ANY($1)', [[...new Set(ids)]]);
    return new Map(rows.map((row) => [row.id, toRecord(row)]));
  }

  async applyPolicy(manager: EntityManager, policy: KnownPolicy): Promise<void> {
    await manager.query(
      `INSERT INTO requests.policies (id, organisation_id, name, fields, version) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, fields = excluded.fields, version = excluded.version
       WHERE requests.policies.version < excluded.version AND NOT requests.policies.deleted`,
      [policy.id, policy.organisationId, policy.name, JSON.stringify(policy.fields), policy.version],
    );
  }

  async deletePolicy(manager: EntityManager, id: string, organisationId: string): Promise<void> {
    await manager.query(
      `INSERT INTO requests.policies (id, organisation_id, name, fields, version, deleted) VALUES ($1, $2, '', '[]', 0, true)
       ON CONFLICT (id) DO UPDATE SET deleted = true`,
      [id, organisationId],
    );
  }

  async findPolicy(manager: EntityManager, id: string): Promise<KnownPolicy | null> {
    const rows: Array<{ id: string; organisation_id: string; name: string; fields: KnownPolicy['fields']; version: number }> = await manager.query(
      'SELECT id, organisation_id, name, fields, version FROM requests.policies WHERE id = $1 AND NOT deleted',
      [id],
    );
    return rows[0] ? { id: rows[0].id, organisationId: rows[0].organisation_id, name: rows[0].name, fields: rows[0].fields, version: rows[0].version } : null;
  }
}
