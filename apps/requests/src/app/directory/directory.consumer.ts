import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrganisationUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { DirectoryRepository } from './directory.repository';

/** Keeps the requests service's copy of users and organisations from identity's events (idempotent upserts). */
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
      // A new registration is not active until activated; user.updated says so when it is.
      const payload =
        event.type === UserUpdated.type
          ? UserUpdated.payload.parse(event.payload)
          : { ...UserRegistered.payload.parse(event.payload), active: false, deleted: false };
      await this.directory.upsertUser(manager, {
        id: payload.userId,
        username: payload.username,
        organisationId: payload.organisationId,
        firstName: payload.firstName,
        lastName: payload.lastName,
        email: payload.email,
        groups: payload.groups,
        active: payload.active,
        deleted: payload.deleted ?? false,
      });
    });
  }
}
