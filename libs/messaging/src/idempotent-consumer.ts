import { EventEnvelope } from '@dc/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { EventBus } from './event-bus';
import { quoteSchema } from './schema-name';

/**
 * Applies each event at most once per consumer group: the work and the processed_events row
 * commit together, so a redelivered event (at-least-once buses) changes nothing, and a failed
 * work leaves no row, so the redelivery applies it.
 */
export class IdempotentConsumer {
  private readonly table: string;

  constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
  ) {
    this.table = `${quoteSchema(schema)}.processed_events`;
  }

  /** Resolves true when the work ran, false when the event had been processed already. */
  async handle(groupId: string, event: EventEnvelope, work: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // Inserting first also serializes concurrent deliveries of one event: the second waits on
      // the key, then finds it taken.
      const inserted: unknown[] = await manager.query(
        `INSERT INTO ${this.table} (consumer_group, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
        [groupId, event.id],
      );
      if (inserted.length === 0) return false;
      await work(manager);
      return true;
    });
  }
}

/** Subscribes a consumer group whose work runs once per event, in one transaction with its bookkeeping. */
export function subscribeIdempotent(
  bus: EventBus,
  dataSource: DataSource,
  schema: string,
  groupId: string,
  eventTypes: string[],
  work: (event: EventEnvelope, manager: EntityManager) => Promise<void>,
): Promise<void> {
  const consumer = new IdempotentConsumer(dataSource, schema);
  return bus.subscribe(groupId, eventTypes, async (event) => {
    await consumer.handle(groupId, event, (manager) => work(event, manager));
  });
}
