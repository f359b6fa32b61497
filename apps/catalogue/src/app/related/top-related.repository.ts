import { Injectable } from '@nestjs/common';
import { isUuid, type RelatedRecordPayload } from '@dc/contracts';
import { ACCESS_FACT_COLUMNS, type AccessFactsRow, toAccessFacts } from '../record-store/access-facts.sql';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { RelatedCandidate } from './top-related';

interface CandidateRow extends AccessFactsRow {
  id: string;
  name: string;
  item: RelatedRecordPayload;
}

/** The top_related projection (relation.top-related) and its reading with the related records' visibility facts. */
@Injectable()
export class TopRelatedRepository {
  constructor(private readonly work: UnitOfWork) {}

  /**
   * Keeps a record's list unless a newer one was applied; a list for a record the catalogue does
   * not have (deleted meanwhile) is not kept.
   */
  async save(recordId: string, related: RelatedRecordPayload[], occurredAt: string): Promise<void> {
    if (!isUuid(recordId)) return;
    await this.work.manager.query(
      `INSERT INTO catalogue.top_related (record_id, related, occurred_at)
       SELECT id, $2::jsonb, $3 FROM catalogue.records WHERE id = $1::uuid
       ON CONFLICT (record_id) DO UPDATE SET related = EXCLUDED.related, occurred_at = EXCLUDED.occurred_at
       WHERE catalogue.top_related.occurred_at <= EXCLUDED.occurred_at`,
      [recordId, JSON.stringify(related.filter((r) => isUuid(r.recordId))), occurredAt],
    );
  }

  /** The kept related records that still exist, in the kept order, with their visibility facts and names. */
  async candidates(recordId: string): Promise<RelatedCandidate[]> {
    const rows = (await this.work.manager.query(
      `SELECT r.id, r.name, ${ACCESS_FACT_COLUMNS}, e.item
         FROM catalogue.top_related t
         CROSS JOIN LATERAL jsonb_array_elements(t.related) WITH ORDINALITY AS e(item, position)
         JOIN catalogue.records r ON r.id = (e.item->>'recordId')::uuid
        WHERE t.record_id = $1
        ORDER BY e.position`,
      [recordId],
    )) as CandidateRow[];
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      ...toAccessFacts(row),
      sem_score: row.item.semScore,
      struct_score: row.item.structScore,
      stats_score: row.item.statsScore,
      link_score: row.item.linkScore,
    }));
  }
}
