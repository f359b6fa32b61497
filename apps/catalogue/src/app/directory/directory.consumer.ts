import { Injectable, OnModuleInit } from '@nestjs/common';
import { DIRECTORY_ORGANISATION_EVENTS, DIRECTORY_USER_EVENTS, directoryOrganisationOf, directoryUserOf } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { DirectoryRepository } from './directory.repository';

/**
 * Keeps the catalogue's copy of users and organisations from identity's events (idempotent upserts);
 * an event older than the one applied last is ignored, so a late one never brings back an old state.
 */
@Injectable()
export class DirectoryConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly work: UnitOfWork,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    this.work.on(this.events, DIRECTORY_ORGANISATION_EVENTS, async (event) => {
      await this.directory.upsertOrganisation(directoryOrganisationOf(event), event.occurredAt);
    });
    this.work.on(this.events, DIRECTORY_USER_EVENTS, async (event) => {
      await this.directory.upsertUser(directoryUserOf(event), event.occurredAt);
    });
  }
}
