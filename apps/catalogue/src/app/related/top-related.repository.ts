import { Injectable } from '@nestjs/common';
import { isUuid, type RelatedRecordPayload } from '@dc/contracts';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { RelatedCandidate } from './top-related';

interface CandidateRow {
  id: string;
  name: string;
  owner_id: string;
  organisation_id: string;
  visibility: string;
  shared_user_ids: string[];
  shared_organisation_ids: string[];
  access: string;
  owner_only: boolean;
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
      `SELECT r.id, r.name, r.owner_id, r.organisation_id, r.visibility, r.shared_user_ids, r.shared_organisation_ids, r.access, r.owner_only, e.item
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
      ownerId: row.owner_id,
      organisationId: row.organisation_id,
      visibility: row.visibility,
      sharedUserIds: row.shared_user_ids,
      sharedOrganisationIds: row.shared_organisation_ids,
      access: row.access,
      ownerOnly: row.owner_only,
      sem_score: row.item.semScore,
      struct_score: row.item.structScore,
      stats_score: row.item.statsScore,
      link_score: row.item.linkScore,
    }));
  }
}
