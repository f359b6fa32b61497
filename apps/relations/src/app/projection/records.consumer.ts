import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FileSketched, RecordCreated, RecordDeleted, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RecordsRepository, type StaleRowIndexes } from '../records/records.repository';
import { TopRelatedRepository } from '../related/top-related.repository';
import { TopRelatedWorker } from '../related/top-related.worker';
import { RowIndexRepository } from '../rows/row-index.repository';
import { RowIndexes } from '../rows/row-indexes';

/**
 * Keeps relations' projection from the catalogue's events only (never its tables): record.* for
 * visibility, headers and words; file.sketched for the column sketches. Idempotent; an event older
 * than the one last applied to a record changes nothing, and a deleted record stays deleted. In the
 * same transaction, row-hash indexes of files that changed or went away are dropped and the
 * record's top_related is marked due.
 */
@Injectable()
export class RecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly records: RecordsRepository,
    private readonly rowIndexBuilds: RowIndexRepository,
    private readonly rowIndexes: RowIndexes,
    private readonly lists: TopRelatedRepository,
    private readonly topRelated: TopRelatedWorker,
  ) {}

  onModuleInit(): void {
    this.events.on([RecordCreated.type, RecordUpdated.type], async (event, manager) => {
      const record = RecordUpdated.payload.parse(event.payload);
      const applied = await this.records.upsertRecord(manager, record, event.occurredAt);
      await this.dropRowIndexes(manager, applied);
      // Headers and words feed the semantic relation of top_related; owner and access decide which values it may use.
      if (applied.relateAgain) await this.relateAgain(manager, record.recordId);
    });
    this.events.on([RecordDeleted.type], async (event, manager) => {
      const { recordId } = RecordDeleted.payload.parse(event.payload);
      await this.dropRowIndexes(manager, await this.records.deleteRecord(manager, recordId, event.occurredAt));
      this.rowIndexes.nudge();
      await this.relateAgain(manager, recordId);
    });
    this.events.on([FileSketched.type], async (event, manager) => {
      const sketch = FileSketched.payload.parse(event.payload);
      await this.dropRowIndexes(manager, await this.records.saveSketch(manager, sketch, event.occurredAt));
      // The file's row-hash index is built in the background, so row links need not parse it.
      this.rowIndexes.nudge();
      await this.relateAgain(manager, sketch.recordId);
    });
  }

  /** A file's row index is built from its stored object and sketch: either changing (or the file going) drops it. */
  private async dropRowIndexes(manager: EntityManager, { staleFiles }: StaleRowIndexes): Promise<void> {
    await this.rowIndexBuilds.dropBuilds(manager, staleFiles);
  }

  /** The record's top_related is computed again in the background (and it leaves others' lists once deleted). */
  private async relateAgain(manager: EntityManager, recordId: string): Promise<void> {
    await this.lists.markPending(manager, [recordId]);
    this.topRelated.nudge();
  }
}
