import { Injectable, OnModuleInit } from '@nestjs/common';
import { createEvent, IndexRebuildRequested, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { recordSnapshot } from '../record-model/record-events';
import { RecordsRepository } from '../record-store/records.repository';

/** Records per transaction: the outbox grows by this many events at a time. */
const BATCH = 200;

/**
 * Rebuilding the search index (`npm run reindex`): on index.rebuild-requested the catalogue
 * publishes record.updated with the current state of every record, through its outbox.
 */
@Injectable()
export class RecordsRepublisher implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly records: RecordsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([IndexRebuildRequested.type], async () => {
      await this.republishAll();
    });
  }

  /**
   * One transaction per batch, so a million records never make one huge transaction. A redelivered
   * request publishes everything again, which consumers apply as the same state.
   */
  async republishAll(): Promise<number> {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const batch: string[] = await this.records.transaction(async (store) => {
        const ids = await store.recordIdsAfter(after, BATCH);
        for (const id of ids) {
          // The row lock waits for an edit in flight, so no event of that edit is older than this snapshot.
          const record = await store.findRecord(id, { forUpdate: true });
          if (record) await store.publish(createEvent(RecordUpdated, id, recordSnapshot(record, await store.files(id))));
        }
        return ids;
      });
      if (batch.length === 0) return total;
      total += batch.length;
      after = batch[batch.length - 1];
    }
  }
}
