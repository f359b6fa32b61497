import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, MoreThan } from 'typeorm';
import { EventEnvelope, IndexRebuildRequested } from '@dc/contracts';
import { ServiceDatabase, ServiceEvents } from '@dc/platform';
import { organisationUpdatedEvent, userUpdatedEvent } from '../accounts/account-events';
import { OrganisationEntity } from '../accounts/organisation.entity';
import { UserEntity } from '../accounts/user.entity';

/** Rows per transaction: the outbox grows by this many events at a time. */
const BATCH = 500;

/**
 * Rebuilding the search index (`npm run reindex`): on index.rebuild-requested identity publishes
 * organisation.updated and user.updated with the current state of every organisation and account.
 */
@Injectable()
export class AccountsRepublisher implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly db: ServiceDatabase,
  ) {}

  onModuleInit(): void {
    this.events.on([IndexRebuildRequested.type], async () => {
      await this.republishAll();
    });
  }

  /** Organisations first, then accounts; one transaction per batch, in id order. */
  async republishAll(): Promise<number> {
    // Row locks wait for a change in flight, so no event of that change is older than the one published here.
    const page = (after: string | null) => ({
      where: after === null ? {} : { id: MoreThan(after) },
      order: { id: 'ASC' as const },
      take: BATCH,
      lock: { mode: 'pessimistic_write' as const },
    });
    const organisations = await this.inBatches((manager, after) => manager.find(OrganisationEntity, page(after)), organisationUpdatedEvent);
    const users = await this.inBatches(
      (manager, after) => manager.find(UserEntity, page(after)),
      (user) => userUpdatedEvent(user),
    );
    return organisations + users;
  }

  private async inBatches<T extends { id: string }>(
    read: (manager: EntityManager, after: string | null) => Promise<T[]>,
    toEvent: (row: T) => EventEnvelope,
  ): Promise<number> {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const batch: T[] = await this.db.transaction(async (tx) => {
        const rows = await read(tx.manager, after);
        if (rows.length > 0) await tx.publish(...rows.map(toEvent));
        return rows;
      });
      if (batch.length === 0) return total;
      total += batch.length;
      after = batch[batch.length - 1].id;
    }
  }
}
