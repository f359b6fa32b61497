import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrganisationUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RecordDocument, SearchIndex } from '@dc/search-index';
import { withOrganisationName, withOwnerName } from '../records/record-document';
import { RecordVersionsRepository } from '../records/record-versions.repository';
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
    this.events.on([OrganisationUpdated.type], async (event, manager) => {
      const payload = OrganisationUpdated.payload.parse(event.payload);
      const applied = await this.directory.upsertOrganisation(
        manager,
        { id: payload.organisationId, name: payload.name, description: payload.description },
        event.occurredAt,
      );
      if (applied) await this.rewriteCards(manager, { organisationId: payload.organisationId }, (doc) => withOrganisationName(doc, payload.name));
    });
    this.events.on([UserRegistered.type, UserUpdated.type], async (event, manager) => {
      const payload =
        event.type === UserUpdated.type ? UserUpdated.payload.parse(event.payload) : { ...UserRegistered.payload.parse(event.payload), active: false };
      const user = {
        id: payload.userId,
        username: payload.username,
        organisationId: payload.organisationId,
        clientType: payload.clientType,
        active: payload.active,
      };
      const applied = await this.directory.upsertUser(manager, user, event.occurredAt);
      if (applied) await this.rewriteCards(manager, { ownerId: payload.userId }, (doc) => withOwnerName(doc, payload.username));
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
