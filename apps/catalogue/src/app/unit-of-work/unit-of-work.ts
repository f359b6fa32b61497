import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';
import { Outbox } from '@dc/messaging';
import { EventHandler, ServiceDatabase, ServiceEvents, ServiceTransaction } from '@dc/platform';

const outbox = new Outbox('catalogue');

/** The transaction a unit of work runs in; open until its work returns (later callbacks started in it find none). */
interface OpenWork extends ServiceTransaction {
  open: boolean;
}

/**
 * The catalogue's unit of work: one transaction that every repository joins without being handed
 * it. A feature opens it (transaction) or an event handler binds the consumer's (on); repositories
 * ask for `manager` (the open transaction's, else the pool's) and `publish` (the transaction's
 * outbox). No feature passes its entity manager into another feature's repository.
 */
@Injectable()
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<OpenWork>();

  constructor(private readonly db: ServiceDatabase) {}

  /**
   * Runs work in one transaction, or in the one already open around it: what every repository
   * writes commits together, and events published go out only if it commits.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.open) return work();
    return this.db.transaction((tx) => this.within(tx, work));
  }

  /** Subscribes an event handler whose repositories write in the consumer's transaction (the event applied once). */
  on(events: ServiceEvents, types: string[], handler: (event: Parameters<EventHandler>[0]) => Promise<void>): void {
    events.on(types, (event, manager) => this.within({ manager, publish: (...envelopes) => outbox.add(manager, envelopes) }, () => handler(event)));
  }

  /** Runs work outside any unit of work, e.g. background work started from inside one (it must not join it). */
  detached<T>(work: () => T): T {
    return this.current.exit(work);
  }

  /** The open transaction's entity manager; outside one, the pool's (reads). */
  get manager(): EntityManager {
    return this.open?.manager ?? this.db.dataSource.manager;
  }

  /** Through the outbox, in the open transaction. */
  async publish(...events: EventEnvelope[]): Promise<void> {
    const open = this.open;
    if (!open) throw new Error('publish needs a transaction');
    await open.publish(...events);
  }

  private get open(): OpenWork | undefined {
    const work = this.current.getStore();
    return work?.open ? work : undefined;
  }

  private async within<T>(tx: ServiceTransaction, work: () => Promise<T>): Promise<T> {
    const open: OpenWork = { manager: tx.manager, publish: (...events) => tx.publish(...events), open: true };
    try {
      return await this.current.run(open, work);
    } finally {
      open.open = false;
    }
  }
}
