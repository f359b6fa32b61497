import { Injectable, OnModuleInit } from '@nestjs/common';
import { PolicyDeleted, PolicyUpdated, RecordCreated, RecordDeleted, RecordUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RecordsRepository } from './records.repository';

/** Keeps what the requests service needs of records and policies from the catalogue's events. */
@Injectable()
export class RecordsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly records: RecordsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RecordCreated.type, RecordUpdated.type], async (event, manager) => {
      const record = RecordUpdated.payload.parse(event.payload);
      await this.records.applyRecord(
        manager,
        {
          id: record.recordId,
          name: record.name,
          ownerId: record.ownerId,
          organisationId: record.organisationId,
          policyId: record.policyId,
          access: record.access,
          visibility: record.visibility,
          sharedUserIds: record.sharedWithUserIds,
          sharedOrganisationIds: record.sharedWithOrganisationIds,
          ownerOnly: record.ownerOnly,
        },
        event.occurredAt,
      );
    });
    this.events.on([RecordDeleted.type], async (event, manager) => {
      await this.records.deleteRecord(manager, RecordDeleted.payload.parse(event.payload).recordId, event.occurredAt);
    });
    this.events.on([PolicyUpdated.type], async (event, manager) => {
      const policy = PolicyUpdated.payload.parse(event.payload);
      await this.records.applyPolicy(manager, {
        id: policy.policyId,
        organisationId: policy.organisationId,
        name: policy.name,
        fields: policy.fields,
        version: policy.version,
      });
    });
    this.events.on([PolicyDeleted.type], async (event, manager) => {
      const policy = PolicyDeleted.payload.parse(event.payload);
      await this.records.deletePolicy(manager, policy.policyId, policy.organisationId);
    });
  }
}
