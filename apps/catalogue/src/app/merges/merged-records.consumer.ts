import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, MergeCompleted, RecordCreated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { ExtractionWorker } from '../extraction/extraction.worker';
import { LineageService } from '../lineage/lineage.service';
import { recordSnapshot } from '../record-model/record-events';
import { defaultTerms, firstVersion, initialVisibility } from '../record-store/new-record';
import { RecordsRepository } from '../record-store/records.repository';
import { UnitOfWork } from '../unit-of-work/unit-of-work';

/**
 * A finished merge job becomes a new record of the job's owner: private (PR; everyone for BASIC
 * clients, as their uploads), access Request, its file the merged CSV the worker stored, extracted
 * like any upload, its provenance naming its sources. The record is named by the job, so a job run
 * twice (a worker killed after storing it) still makes one record. Its lineage links it to every
 * source with the terms it was read under; one read under open or grant terms (directly or through
 * another derivative) makes it its maker's alone, whatever the plan.
 */
@Injectable()
export class MergedRecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly work: UnitOfWork,
    private readonly records: RecordsRepository,
    private readonly extraction: ExtractionWorker,
    private readonly lineage: LineageService,
  ) {}

  onModuleInit(): void {
    // The record, its lineage and record.created are written in the consumer's transaction (the unit of work the event is applied in).
    this.work.on(this.events, [MergeCompleted.type], async (event) => {
      const merge = MergeCompleted.payload.parse(event.payload);
      const store = this.records.store;
      if (await store.findRecord(merge.recordId)) return;
      const { owner } = merge;
      await store.rememberCaller({
        id: owner.userId,
        username: owner.username,
        organisationId: owner.organisationId,
        clientType: owner.clientType,
        groups: owner.groups,
      });
      const now = new Date();
      const links = await this.lineage.linksOfMerge(merge, now);
      const ownerOnly = this.lineage.isRestricted(links);
      await store.insertRecord({
        id: merge.recordId,
        name: merge.name,
        altName: merge.fileName,
        description: merge.description,
        provenance: merge.provenance,
        source: '',
        ownerId: owner.userId,
        organisationId: owner.organisationId,
        origin: 'merge',
        type: 'csv',
        size: merge.size,
        ...firstVersion(now, ownerOnly ? 'PR' : initialVisibility(owner.clientType)),
        ownerOnly,
        ...defaultTerms(),
        extractOption: 'metadata',
        privateColumns: null,
      });
      await this.lineage.save(links);
      const fileId = randomUUID();
      await store.insertFile(
        {
          id: fileId,
          recordId: merge.recordId,
          organisationId: owner.organisationId,
          name: merge.fileName,
          contentType: 'text/csv',
          size: merge.size,
          checksum: merge.checksum,
          storageKey: merge.storageKey,
        },
        now,
      );
      const record = (await store.findRecord(merge.recordId))!;
      await store.publish(createEvent(RecordCreated, record.id, recordSnapshot(record, await store.files(record.id)), { correlationId: event.correlationId }));
      // The worker also polls; this only saves the wait once the transaction has committed.
      setTimeout(() => this.extraction.nudge(), 200).unref();
    });
  }
}
