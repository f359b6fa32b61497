import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TOP_RELATED_KEPT } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import type { RelatedScores } from './top-related';

interface ScoreRow {
  related_id: string;
  sem_score: number;
  struct_score: number;
  stats_score: number;
  link_score: number;
  total: number;
}

const toScores = (row: ScoreRow): RelatedScores => ({
  relatedId: row.related_id,
  sem_score: row.sem_score,
  struct_score: row.struct_score,
  stats_score: row.stats_score,
  link_score: row.link_score,
  total: row.total,
});

/** Marks records whose top_related is due to be computed again; in the caller's transaction. */
export async function markTopRelatedPending(manager: EntityManager, recordIds: string[]): Promise<void> {
  if (recordIds.length === 0) return;
  await manager.query(
    `INSERT INTO relations.related_pending (record_id, requested_at) SELECT unnest($1::text[]), clock_timestamp()
     ON CONFLICT (record_id) DO UPDATE SET requested_at = EXCLUDED.requested_at`,
    [recordIds],
  );
}

/** The kept related records of each record (at most TOP_RELATED_KEPT) and the queue of records to score again. */
@Injectable()
export class TopRelatedRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** The record due longest; requestedAt as PostgreSQL wrote it (microseconds, which a Date would lose). */
  async nextPending(): Promise<{ recordId: string; requestedAt: string } | null> {
    const rows = (await this.db.dataSource.query(
      'SELECT record_id, requested_at::text FROM relations.related_pending ORDER BY requested_at, record_id LIMIT 1',
    )) as Array<{ record_id: string; requested_at: string }>;
    return rows[0] ? { recordId: rows[0].record_id, requestedAt: rows[0].requested_at } : null;
  }

  /** Done, unless it was asked for again meanwhile. */
  async done(manager: EntityManager, recordId: string, requestedAt: string): Promise<void> {
    await manager.query('DELETE FROM relations.related_pending WHERE record_id = $1 AND requested_at <= $2::timestamptz', [recordId, requestedAt]);
  }

  async list(manager: EntityManager | null, recordId: string): Promise<RelatedScores[]> {
    const rows = (await (manager ?? this.db.dataSource.manager).query(
      'SELECT related_id, sem_score, struct_score, stats_score, link_score, total FROM relations.related_scores WHERE record_id = $1 ORDER BY total DESC, related_id',
      [recordId],
    )) as ScoreRow[];
    return rows.map(toScores);
  }

  async replace(manager: EntityManager, recordId: string, scores: RelatedScores[]): Promise<void> {
    await manager.query('DELETE FROM relations.related_scores WHERE record_id = $1', [recordId]);
    for (const s of scores) await this.put(manager, recordId, s);
  }

  /** Puts one related record into a record's list and keeps the list's best TOP_RELATED_KEPT. */
  async merge(manager: EntityManager, recordId: string, score: RelatedScores): Promise<void> {
    await this.put(manager, recordId, score);
    await manager.query(
      `DELETE FROM relations.related_scores WHERE record_id = $1 AND related_id NOT IN
         (SELECT related_id FROM relations.related_scores WHERE record_id = $1 ORDER BY total DESC, related_id LIMIT $2)`,
      [recordId, TOP_RELATED_KEPT],
    );
  }

  async remove(manager: EntityManager, recordId: string, relatedId: string): Promise<void> {
    await manager.query('DELETE FROM relations.related_scores WHERE record_id = $1 AND related_id = $2', [recordId, relatedId]);
  }

  /** Records whose list holds this one. */
  async holdersOf(manager: EntityManager, relatedId: string): Promise<string[]> {
    const rows = (await manager.query('SELECT record_id FROM relations.related_scores WHERE related_id = $1', [relatedId])) as Array<{ record_id: string }>;
    return rows.map((r) => r.record_id);
  }

  private async put(manager: EntityManager, recordId: string, s: RelatedScores): Promise<void> {
    await manager.query(
      `INSERT INTO relations.related_scores (record_id, related_id, sem_score, struct_score, stats_score, link_score, total) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (record_id, related_id) DO UPDATE SET sem_score = EXCLUDED.sem_score, struct_score = EXCLUDED.struct_score, stats_score = EXCLUDED.stats_score,
         link_score = EXCLUDED.link_score, total = EXCLUDED.total`,
      [recordId, s.relatedId, s.sem_score, s.struct_score, s.stats_score, s.link_score, s.total],
    );
  }
}
