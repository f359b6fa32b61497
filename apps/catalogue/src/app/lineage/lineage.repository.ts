import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SourceTerms } from '@dc/contracts';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { LineageLink } from './lineage';

interface LinkRow {
  derived_record_id: string;
  source_record_id: string;
  source_name: string;
  maker_id: string;
  terms: SourceTerms;
  request_id: string | null;
  via_record_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const LINK_COLUMNS = 'derived_record_id, source_record_id, source_name, maker_id, terms, request_id, via_record_id, created_at, revoked_at';

const toLink = (row: LinkRow): LineageLink => ({
  derivedRecordId: row.derived_record_id,
  sourceRecordId: row.source_record_id,
  sourceName: row.source_name,
  makerId: row.maker_id,
  terms: row.terms,
  requestId: row.request_id,
  viaRecordId: row.via_record_id,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/** A derivative of a source, as its owner side lists it. */
export interface DerivativeRow {
  id: string;
  name: string;
  makerUsername: string;
  createdAt: Date;
  terms: SourceTerms[];
  revokedAt: Date | null;
}

/** catalogue.record_lineage: the links of derived records to the records they were made from. */
@Injectable()
export class LineageRepository {
  constructor(private readonly work: UnitOfWork) {}

  private get manager(): EntityManager {
    return this.work.manager;
  }

  /** The links of these derived records, sources read directly first. */
  async linksOf(derivedRecordIds: string[]): Promise<LineageLink[]> {
    if (derivedRecordIds.length === 0) return [];
    const rows: LinkRow[] = await this.manager.query(
      `SELECT ${LINK_COLUMNS} FROM catalogue.record_lineage WHERE derived_record_id = ANY($1::uuid[])
        ORDER BY via_record_id NULLS FIRST, created_at, source_name, source_record_id`,
      [derivedRecordIds],
    );
    return rows.map(toLink);
  }

  /** Writes a new derivative's links; one already written (a redelivery) stays, a revocation on either side kept. */
  async insert(links: LineageLink[]): Promise<void> {
    if (links.length === 0) return;
    const rows = links.map((l) => ({
      derived_record_id: l.derivedRecordId,
      source_record_id: l.sourceRecordId,
      source_name: l.sourceName,
      maker_id: l.makerId,
      terms: l.terms,
      request_id: l.requestId,
      via_record_id: l.viaRecordId,
      created_at: l.createdAt,
      revoked_at: l.revokedAt,
    }));
    await this.manager.query(
      `INSERT INTO catalogue.record_lineage (${LINK_COLUMNS})
       SELECT ${LINK_COLUMNS} FROM jsonb_to_recordset($1::jsonb) AS r(derived_record_id uuid, source_record_id uuid, source_name text, maker_id text,
         terms text, request_id text, via_record_id uuid, created_at timestamptz, revoked_at timestamptz)
       ON CONFLICT (derived_record_id, source_record_id, terms, coalesce(request_id, ''))
       DO UPDATE SET revoked_at = coalesce(catalogue.record_lineage.revoked_at, excluded.revoked_at)`,
      [JSON.stringify(rows)],
    );
  }

  /** The records made from the source (directly or through other derivatives), one row each, newest first. */
  async derivativesOf(sourceRecordId: string): Promise<DerivativeRow[]> {
    const rows: Array<{ id: string; name: string; maker_username: string | null; created_at: Date; terms: SourceTerms[]; revoked_at: Date | null }> =
      await this.manager.query(
        `SELECT r.id, r.name, u.username AS maker_username, r.date_created AS created_at,
              array_agg(DISTINCT l.terms) AS terms, max(l.revoked_at) AS revoked_at
         FROM catalogue.record_lineage l
         JOIN catalogue.records r ON r.id = l.derived_record_id
         LEFT JOIN catalogue.users u ON u.id = r.owner_id
        WHERE l.source_record_id = $1
        GROUP BY r.id, r.name, u.username, r.date_created
        ORDER BY r.date_created DESC, r.id`,
        [sourceRecordId],
      );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      makerUsername: row.maker_username ?? '',
      createdAt: row.created_at,
      terms: row.terms,
      revokedAt: row.revoked_at,
    }));
  }

  /**
   * Revokes the derivative's links to the source, and those of every record made from the
   * derivative since (they all link to it, being flattened): their download stops for good.
   * Answers the derived records whose links it revoked now.
   */
  async revoke(sourceRecordId: string, derivedRecordId: string, by: string, at: Date): Promise<string[]> {
    const [rows]: [Array<{ derived_record_id: string }>, number] = await this.manager.query(
      `UPDATE catalogue.record_lineage SET revoked_at = $4, revoked_by = $3
        WHERE source_record_id = $1 AND revoked_at IS NULL
          AND (derived_record_id = $2 OR derived_record_id IN (SELECT derived_record_id FROM catalogue.record_lineage WHERE source_record_id = $2))
        RETURNING derived_record_id`,
      [sourceRecordId, derivedRecordId, by, at],
    );
    return [...new Set(rows.map((row) => row.derived_record_id))];
  }
}
