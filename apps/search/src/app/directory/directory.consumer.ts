import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DIRECTORY_ORGANISATION_EVENTS, DIRECTORY_USER_EVENTS, directoryOrganisationOf, directoryUserOf } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RecordDocument, SearchIndex } from '@dc/search-index';
import { withOrganisationName, withOwnerName } from '../projection/record-document';
import { RecordVersionsRepository } from '../projection/record-versions.repository';
import { DirectoryRepository } from './directory.repository';

/** Cards rewritten per index write when a name changes. */
const BATCH = 100;

/**
 * Keeps the search service's copy of organisations and users from identity's events only, and
 * puts a changed username or organisation name on the cards of their records.
 */
@Injectable()
export class DirectoryConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly directory: DirectoryRepository,
    private readonly versions: RecordVersionsRepository,
    private readonly index: SearchIndex,
  ) {}

  onModuleInit(): void {
    this.events.on(DIRECTORY_ORGANISATION_EVENTS, async (event, manager) => {
      const organisation = directoryOrganisationOf(event);
      const applied = await this.directory.upsertOrganisation(manager, organisation, event.occurredAt);
      if (applied) await this.rewriteCards(manager, { organisationId: organisation.id }, (doc) => withOrganisationName(doc, organisation.name));
    });
    this.events.on(DIRECTORY_USER_EVENTS, async (event, manager) => {
      const { id, username, organisationId, clientType, active } = directoryUserOf(event);
      const applied = await this.directory.upsertUser(manager, { id, username, organisationId, clientType, active }, event.occurredAt);
      if (applied) await this.rewriteCards(manager, { ownerId: id }, (doc) => withOwnerName(doc, username));
    });
  }

  /**
   * Rewrites the cards of the owner's or organisation's records. Their version rows stay locked
   * until this event's transaction ends, so a record event in between waits instead of being overwritten.
   */
  private async rewriteCards(
    manager: EntityManager,
    of: { ownerId: string } | { organisationId: string },
    rewrite: (doc: RecordDocument) => RecordDocument | null,
  ): Promise<void> {
    const ids = await this.versions.lockLiveRecords(manager, of);
    for (let i = 0; i < ids.length; i += BATCH) {
      const docs = await this.index.getMany(ids.slice(i, i + BATCH));
      const changed = docs.map(rewrite).filter((doc): doc is RecordDocument => doc !== null);
      if (changed.length > 0) await this.index.upsert(changed);
    }
  }
}
