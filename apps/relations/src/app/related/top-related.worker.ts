import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { createEvent, RelationTopRelated } from '@dc/contracts';
import { BackgroundLoop, LOGGER } from '@dc/platform';
import { RecordsRepository } from '../records/records.repository';
import { Lexicon } from '../wordnet/lexicon';
import { bestRelated, rememberingSimilarity, type RelatedScores, scoresBothWays } from './top-related';
import { TopRelatedRepository, type TopRelatedStore } from './top-related.repository';

/** Candidate records scored per computation (from the value-hash index, then shared headers). */
export const TOP_RELATED_CANDIDATES = 40;
const POLL_INTERVAL_MS = 10_000;

const sameList = (a: RelatedScores[], b: RelatedScores[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Keeps every record's top_related: when a record's sketches or words change (or it is deleted),
 * scores it against its candidates, keeps its best related records, puts it into its candidates'
 * lists (each scored from their side) and publishes every list that changed as
 * relation.top-related, in the same transaction (outbox). Reads never compute anything.
 */
@Injectable()
export class TopRelatedWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger: Logger;
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly records: RecordsRepository,
    private readonly lists: TopRelatedRepository,
    private readonly lexicon: Lexicon,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'top-related' });
    this.loop = new BackgroundLoop(
      () => this.step(),
      (error) => this.logger.error({ err: error }, 'top_related queue failed; trying again at the next poll'),
      POLL_INTERVAL_MS,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  nudge(): void {
    this.loop.nudgeAfterCommit();
  }

  /** Resolves once nothing is due (tests, benchmarks). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  private async step(): Promise<boolean> {
    const pending = await this.lists.nextPending();
    if (!pending) return false;
    const { recordId, requestedAt } = pending;
    const [record] = await this.records.sketched([recordId]);
    const similarity = rememberingSimilarity((a, b) => this.lexicon.similarity(a, b));
    const scored = record
      ? (await this.records.relatedCandidates(record, TOP_RELATED_CANDIDATES)).map((other) => scoresBothWays(record, other, similarity))
      : [];
    await this.lists.transaction(async (store) => {
      // The record's own list (none once it is deleted) ...
      const before = await store.list(recordId);
      const own = bestRelated(scored.map((s) => s.forward));
      await store.replace(recordId, own);
      if (record && !sameList(before, own)) await this.publish(store, recordId, own);
      // ... and its place in the lists of the others: its candidates, and those that held it.
      const others = new Map<string, RelatedScores | null>(scored.map((s) => [s.forward.relatedId, s.backward]));
      for (const holder of await store.holdersOf(recordId)) if (!others.has(holder)) others.set(holder, null);
      for (const [otherId, score] of others) {
        const earlier = await store.list(otherId);
        if (score && score.total > 0) await store.merge(otherId, score);
        else await store.remove(otherId, recordId);
        const now = await store.list(otherId);
        if (!sameList(earlier, now)) await this.publish(store, otherId, now);
      }
      await store.done(recordId, requestedAt);
    });
    return true;
  }

  private async publish(store: TopRelatedStore, recordId: string, list: RelatedScores[]): Promise<void> {
    await store.publish(
      createEvent(RelationTopRelated, recordId, {
        recordId,
        related: list.map((s) => ({
          recordId: s.relatedId,
          semScore: s.sem_score,
          structScore: s.struct_score,
          statsScore: s.stats_score,
          linkScore: s.link_score,
        })),
      }),
    );
  }
}
