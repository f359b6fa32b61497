import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordCreated, RecordDeleted, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { SearchIndex } from '@dc/search-index';
import { DirectoryRepository } from '../directory/directory.repository';
import { toDocument } from '../projection/record-document';
import { RecordVersionsRepository } from '../projection/record-versions.repository';

/**
 * Keeps the search index from the catalogue's record events only. Each event is applied once
 * (idempotent consumer), and one older than the record's last applied event (a late redelivery, or
 * an event overtaken by a re-published snapshot) changes nothing.
 */
@Injectable()
export class RecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly index: SearchIndex,
    private readonly versions: RecordVersionsRepository,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RecordCreated.type, RecordUpdated.type], async (event, manager) => {
      const record = RecordUpdated.payload.parse(event.payload);
      const newest = await this.versions.advance(manager, {
        id: record.recordId,
        ownerId: record.ownerId,
        organisationId: record.organisationId,
        occurredAt: event.occurredAt,
        deleted: false,
      });
      if (!newest) return;
      await this.index.upsert([toDocument(record, await this.directory.names(manager, record.ownerId, record.organisationId))]);
    });
    this.events.on([RecordDeleted.type], async (event, manager) => {
      const deleted = RecordDeleted.payload.parse(event.payload);
      const newest = await this.versions.advance(manager, {
        id: deleted.recordId,
        ownerId: deleted.ownerId,
        organisationId: deleted.organisationId,
        occurredAt: event.occurredAt,
        deleted: true,
      });
      if (newest) await this.index.remove([deleted.recordId]);
    });
  }
}
