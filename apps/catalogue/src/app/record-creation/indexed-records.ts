import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, RecordCreated } from '@dc/contracts';
import type { SketchCollector } from '@dc/extraction';
import { AuthUser, currentCorrelationId } from '@dc/platform';
import { statusFromMeta } from '../record-model/meta-summary';
import type { PrivateColumnChoices } from '../record-model/record';
import { fileSketchedEvent, metadataExtractedEvent, recordSnapshot } from '../record-model/record-events';
import { defaultTerms, firstVersion, initialVisibility } from '../record-store/new-record';
import { NewRecord, RecordsRepository } from '../record-store/records.repository';

/** A file whose META was made while indexing (a SQL table, an S3 object), not by the extraction queue. */
export interface IndexedFile {
  name: string;
  contentType: string;
  size: number;
  /** Identifies the content within the organisation (sha256 of an object's bytes, or of a table's identity). */
  checksum: string;
  meta: Record<string, unknown>;
  /** Column sketches gathered while it was read (S3 objects), for the relations service. */
  sketches?: SketchCollector['tables'];
}

export interface IndexedRecordPlan {
  name: string;
  description?: string;
  /** Where the data lives, e.g. `mysql://host:3306/db/table` or `s3://bucket/key` (never with credentials). */
  source: string;
  /** database or cloud. */
  origin: string;
  type: string;
  extractOption: NewRecord['extractOption'];
  privateColumns: PrivateColumnChoices | null;
  file: IndexedFile;
}

/**
 * Records made from data the catalogue read at its source and does not store (SQL tables and S3
 * objects): record and file are written with META in one transaction, and record.created and
 * file.metadata-extracted leave through the outbox as for an extracted upload.
 */
@Injectable()
export class IndexedRecords {
  constructor(private readonly records: RecordsRepository) {}

  async create(user: AuthUser, plan: IndexedRecordPlan): Promise<string> {
    const now = new Date();
    const id = randomUUID();
    const fileId = randomUUID();
    const correlationId = currentCorrelationId();
    const record: NewRecord = {
      id,
      name: plan.name.slice(0, 255),
      altName: '',
      description: plan.description ?? '',
      provenance: '',
      source: plan.source,
      ownerId: user.id,
      organisationId: user.organisationId,
      origin: plan.origin,
      type: plan.type,
      size: plan.file.size,
      ...firstVersion(now, initialVisibility(user.clientType)),
      ...defaultTerms(),
      extractOption: plan.extractOption,
      privateColumns: plan.privateColumns,
    };
    const status = statusFromMeta(plan.file.meta);
    await this.records.transaction(async (store) => {
      await store.rememberCaller(user);
      await store.insertRecord(record);
      const { file } = plan;
      await store.insertFile(
        {
          id: fileId,
          recordId: id,
          organisationId: user.organisationId,
          name: file.name.slice(0, 255),
          contentType: file.contentType,
          size: file.size,
          checksum: file.checksum,
          storageKey: null,
        },
        now,
      );
      await store.storeIndexedMeta(fileId, file.meta, status);
      const saved = (await store.findRecord(id))!;
      const files = await store.files(id);
      await store.publish(
        createEvent(RecordCreated, id, recordSnapshot(saved, files), { correlationId }),
        metadataExtractedEvent(files[0], { meta: file.meta, status, extractOption: plan.extractOption }, correlationId),
      );
      if (file.sketches?.length) await store.publish(fileSketchedEvent(files[0], file.sketches, correlationId));
    });
    return id;
  }
}
