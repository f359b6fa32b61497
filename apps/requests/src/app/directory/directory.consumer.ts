import { Injectable, OnModuleInit } from '@nestjs/common';
import { DIRECTORY_ORGANISATION_EVENTS, DIRECTORY_USER_EVENTS, directoryOrganisationOf, directoryUserOf } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { DirectoryRepository } from './directory.repository';

/** Keeps the requests service's copy of users and organisations from identity's events (idempotent upserts; a late older event changes nothing). */
@Injectable()
export class DirectoryConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    this.events.on(DIRECTORY_ORGANISATION_EVENTS, async (event, manager) => {
      await this.directory.upsertOrganisation(manager, directoryOrganisationOf(event), event.occurredAt);
    });
    this.events.on(DIRECTORY_USER_EVENTS, async (event, manager) => {
      await this.directory.upsertUser(manager, directoryUserOf(event), event.occurredAt);
    });
  }
}
