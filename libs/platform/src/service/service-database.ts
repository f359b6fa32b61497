import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';

/**
 * A service's own database: its schema, its data source, and its outbox. Events are written in
 * the same transaction as the state change and relayed afterwards, so nothing is lost between
 * commit and publish.
 */
export abstract class ServiceDatabase {
  abstract readonly schema: string;
  abstract readonly dataSource: DataSource;
  private readonly committedListeners: Array<(events: EventEnvelope[]) => void> = [];
  /** Runs work in one transaction; events it records are published only if it commits. */
  abstract transaction<T>(work: (tx: ServiceTransaction) => Promise<T>): Promise<T>;

  /**
   * Calls the listener, in this process, with the events of each of this service's transactions as
   * soon as it commits (before the outbox relays them): for caches of the service's own state.
   */
  onCommitted(listener: (events: EventEnvelope[]) => void): void {
    this.committedListeners.push(listener);
  }

  protected committed(events: EventEnvelope[]): void {
    for (const listener of this.committedListeners) listener(events);
  }
}

export interface ServiceTransaction {
  manager: EntityManager;
  publish(...events: EventEnvelope[]): Promise<void>;
}

export type EventHandler = (event: EventEnvelope, manager: EntityManager) => Promise<void>;

/** A service's event subscriptions; each event is applied once (processed-events table). */
export abstract class ServiceEvents {
  abstract on(types: string[], handler: EventHandler): void;

  private readonly appliedListeners: Array<(event: EventEnvelope) => void> = [];

  /**
   * Calls the listener, in this process, with each event a subscription of this service applied,
   * once the transaction that applied it committed: for memories of the service's projections.
   */
  onApplied(listener: (event: EventEnvelope) => void): void {
    this.appliedListeners.push(listener);
  }

  protected applied(event: EventEnvelope): void {
    for (const listener of this.appliedListeners) listener(event);
  }
}
