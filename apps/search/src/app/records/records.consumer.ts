import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordCreated, RecordDeleted, RecordSnapshot, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RecordDocument, SearchIndex } from '@dc/search-index';

/** What a record card shows beyond the searched fields (spec section 2, Record card). */
export function toDocument(record: RecordSnapshot): RecordDocument {
  return {
    id: record.recordId,
    name: record.name,
    altName: record.altName || undefined,
    description: record.description,
    headers: record.headers,
    words: record.words,
    ownerId: record.ownerId,
    organisationId: record.organisationId,
    visibility: record.visibility,
    sharedWithUserIds: record.sharedWithUserIds,
    sharedWithOrganisationIds: record.sharedWithOrganisationIds,
    groupIds: record.groupIds,
    createdAt: record.createdAt,
    changedAt: record.changedAt,
    card: {
      user: record.ownerUsername,
      organisation: { id: record.organisationId, name: record.organisationName },
      origin: record.origin,
      type: record.type,
      size: record.size,
      version: record.version,
      access: record.access,
      accessFee: record.accessFee,
      currency: record.currency,
      policy: record.policyId,
      total_rows: record.totalRows,
      file_count: record.files.length,
    },
  };
}

/**
 * Keeps the search index from the catalogue's record events only. Events of one record arrive
 * in order (same key); each is applied once, and re-applying one is harmless (upsert by id).
 */
@Injectable()
export class RecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly index: SearchIndex,
  ) {}

  onModuleInit(): void {
    this.events.on([RecordCreated.type, RecordUpdated.type], async (event) => {
      await this.index.upsert([toDocument(RecordUpdated.payload.parse(event.payload))]);
    });
    this.events.on([RecordDeleted.type], async (event) => {
      await this.index.remove([RecordDeleted.payload.parse(event.payload).recordId]);
    });
  }
}
