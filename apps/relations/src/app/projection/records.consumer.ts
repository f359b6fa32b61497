import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FileSketched, RecordCreated, RecordDeleted, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { markTopRelatedPending } from '../related/top-related.repository';
import { TopRelatedWorker } from '../related/top-related.worker';
import { RowIndexes } from '../rows/row-indexes';
import { RecordsRepository } from './records.repository';

/**
 * Keeps relations' projection from the catalogue's events only (never its tables): record.* for
 * visibility, headers and words; file.sketched for the column sketches. Idempotent; an event older
 * than the one last applied to a record changes nothing, and a deleted record stays deleted.
 */
@Injectable()
export class RecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly records: RecordsRepository,
    private readonly rowIndexes: RowIndexes,
    private readonly topRelated: TopRelatedWorker,
  ) {}

  onModuleInit(): void {
    this.events.on([RecordCreated.type, RecordUpdated.type], async (event, manager) => {
      const record = RecordUpdated.payload.parse(event.payload);
      const { relateAgain } = await this.records.upsertRecord(manager, record, event.occurredAt);
      // Headers and words feed the semantic relation of top_related; owner and access decide which values it may use.
      if (relateAgain) await this.relateAgain(manager, record.recordId);
    });
    this.events.on([RecordDeleted.type], async (event, manager) => {
      const { recordId } = RecordDeleted.payload.parse(event.payload);
      await this.records.deleteRecord(manager, recordId, event.occurredAt);
      this.rowIndexes.nudge();
      await this.relateAgain(manager, recordId);
    });
    this.events.on([FileSketched.type], async (event, manager) => {
      const sketch = FileSketched.payload.parse(event.payload);
      await this.records.saveSketch(manager, sketch, event.occurredAt);
      // The file's row-hash index is built in the background, so row links need not parse it.
      this.rowIndexes.nudge();
      await this.relateAgain(manager, sketch.recordId);
    });
  }

  /** The record's top_related is computed again in the background (and it leaves others' lists once deleted). */
  private async relateAgain(manager: EntityManager, recordId: string): Promise<void> {
    await markTopRelatedPending(manager, [recordId]);
    this.topRelated.nudge();
  }
}
