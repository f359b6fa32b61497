import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type EventEnvelope, TOP_RELATED_KEPT } from '@dc/contracts';
import { ServiceDatabase, type ServiceTransaction } from '@dc/platform';
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

async function listOf(manager: EntityManager, recordId: string): Promise<RelatedScores[]> {
  const rows = (await manager.query(
    `SELECT related_id, sem_score, struct_score, stats_score, link_score, total FROM relations.related_scores
      WHERE record_id = $1 ORDER BY total DESC, related_id`,
    [recordId],
  )) as ScoreRow[];
  return rows.map(toScores);
}

/** The kept lists as one transaction reads and writes them, with the events published in it (outbox). */
export class TopRelatedStore {
  constructor(private readonly tx: ServiceTransaction) {}

  list(recordId: string): Promise<RelatedScores[]> {
    return listOf(this.tx.manager, recordId);
  }

  async replace(recordId: string, scores: RelatedScores[]): Promise<void> {
    await this.tx.manager.query('DELETE FROM relations.related_scores WHERE record_id = $1', [recordId]);
    for (const s of scores) await this.put(recordId, s);
  }

  /** Puts one related record into a record's list and keeps the list's best TOP_RELATED_KEPT. */
  async merge(recordId: string, score: RelatedScores): Promise<void> {
    await this.put(recordId, score);
    await this.tx.manager.query(
      `DELETE FROM relations.related_scores WHERE record_id = $1 AND related_id NOT IN
         (SELECT related_id FROM relations.related_scores WHERE record_id = $1 ORDER BY total DESC, related_id LIMIT $2)`,
      [recordId, TOP_RELATED_KEPT],
    );
  }

  async remove(recordId: string, relatedId: string): Promise<void> {
    await this.tx.manager.query('DELETE FROM relations.related_scores WHERE record_id = $1 AND related_id = $2', [recordId, relatedId]);
  }

  /** Records whose list holds this one. */
  async holdersOf(relatedId: string): Promise<string[]> {
    const rows = (await this.tx.manager.query('SELECT record_id FROM relations.related_scores WHERE related_id = $1', [relatedId])) as Array<{
      record_id: string;
    }>;
    return rows.map((r) => r.record_id);
  }

  /** Done, unless it was asked for again meanwhile. */
  async done(recordId: string, requestedAt: string): Promise<void> {
    await this.tx.manager.query('DELETE FROM relations.related_pending WHERE record_id = $1 AND requested_at <= $2::timestamptz', [recordId, requestedAt]);
  }

  /** Events go out only if the transaction commits. */
  publish(...events: EventEnvelope[]): Promise<void> {
    return this.tx.publish(...events);
  }

  private async put(recordId: string, s: RelatedScores): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO relations.related_scores (record_id, related_id, sem_score, struct_score, stats_score, link_score, total)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (record_id, related_id) DO UPDATE SET sem_score = EXCLUDED.sem_score, struct_score = EXCLUDED.struct_score,
         stats_score = EXCLUDED.stats_score, link_score = EXCLUDED.link_score, total = EXCLUDED.total`,
      [recordId, s.relatedId, s.sem_score, s.struct_score, s.stats_score, s.link_score, s.total],
    );
  }
}

/** The kept related records of each record (at most TOP_RELATED_KEPT) and the queue of records to score again. */
@Injectable()
export class TopRelatedRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /** Marks records whose top_related is due to be computed again; in the caller's transaction. */
  async markPending(manager: EntityManager, recordIds: string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await manager.query(
      `INSERT INTO relations.related_pending (record_id, requested_at) SELECT unnest($1::text[]), clock_timestamp()
       ON CONFLICT (record_id) DO UPDATE SET requested_at = EXCLUDED.requested_at`,
      [recordIds],
    );
  }

  /** The record due longest; requestedAt as PostgreSQL wrote it (microseconds, which a Date would lose). */
  async nextPending(): Promise<{ recordId: string; requestedAt: string } | null> {
    const rows = (await this.db.dataSource.query(
      'SELECT record_id, requested_at::text FROM relations.related_pending ORDER BY requested_at, record_id LIMIT 1',
    )) as Array<{ record_id: string; requested_at: string }>;
    return rows[0] ? { recordId: rows[0].record_id, requestedAt: rows[0].requested_at } : null;
  }

  /** A record's kept list, best first. */
  list(recordId: string): Promise<RelatedScores[]> {
    return listOf(this.db.dataSource.manager, recordId);
  }

  /** Reads and writes lists in one transaction; events published through the store go out only if it commits. */
  transaction<T>(work: (store: TopRelatedStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new TopRelatedStore(tx)));
  }
}
