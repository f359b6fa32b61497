import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrganisationUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { DirectoryRepository } from './directory.repository';

/** Keeps the catalogue's copy of users and organisations from identity's events (idempotent upserts). */
@Injectable()
export class DirectoryConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([OrganisationUpdated.type], async (event, manager) => {
      const payload = OrganisationUpdated.payload.parse(event.payload);
      await this.directory.upsertOrganisation(manager, { id: payload.organisationId, name: payload.name, description: payload.description });
    });
    this.events.on([UserRegistered.type, UserUpdated.type], async (event, manager) => {
      const payload =
        event.type === UserUpdated.type
          ? UserUpdated.payload.parse(event.payload)
          : { ...UserRegistered.payload.parse(event.payload), active: false, deleted: false };
      await this.directory.upsertUser(manager, {
        id: payload.userId,
        username: payload.username,
        organisationId: payload.organisationId,
        clientType: payload.clientType,
        active: payload.active,
        deleted: payload.deleted ?? false,
        groups: payload.groups,
      });
    });
  }
}
