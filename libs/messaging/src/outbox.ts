import { EventEnvelope, validateEnvelope } from '@dc/contracts';
import { EntityManager } from 'typeorm';
import { quoteSchema } from './schema-name';

/**
 * Records events in the caller's transaction, beside the state change they describe; the
 * OutboxRelay publishes them once that transaction has committed. Rolled back, they never existed.
 */
export class Outbox {
  private readonly table: string;

  constructor(readonly schema: string) {
    this.table = `${quoteSchema(schema)}.outbox_events`;
  }

  async add(manager: EntityManager, events: EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    if (!manager.queryRunner?.isTransactionActive) throw new Error('Outbox.add needs the entity manager of an open transaction');
    const valid = events.map((event) => validateEnvelope(JSON.parse(JSON.stringify(event))));
    const values: unknown[] = [];
    const rows = valid.map((event, i) => {
      values.push(event.id, event.type, event.version, event.key, JSON.stringify(event.payload), JSON.stringify(event));
      const p = i * 6;
      return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}::jsonb, $${p + 6}::jsonb)`;
    });
    await manager.query(`INSERT INTO ${this.table} (id, type, version, key, payload, envelope) VALUES ${rows.join(', ')}`, values);
  }
}
