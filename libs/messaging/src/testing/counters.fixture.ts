import { createEvent, EventEnvelope, OrganisationUpdated } from '@dc/contracts';
import { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { Outbox } from '../outbox';

/**
 * A tiny service for the outbox tests: it renames organisations (state change plus event, one
 * transaction), and its consumer counts how often each organisation's events were applied.
 */
export const SCHEMA = 'svc';

export const quietLogger = { debug: () => undefined, warn: () => undefined, error: () => undefined };

export class CounterTables implements MigrationInterface {
  readonly name = 'CounterTables1767225600001';
  async up(queryRunner: QueryRunner) {
    await queryRunner.query(`CREATE TABLE ${SCHEMA}.counters (key text PRIMARY KEY, applied integer NOT NULL, names text[] NOT NULL)`);
    await queryRunner.query(`CREATE TABLE ${SCHEMA}.organisations (id text PRIMARY KEY, name text NOT NULL)`);
  }
  async down() {}
}

const outbox = new Outbox(SCHEMA);

/** The service side: change state and record the event in one transaction. */
export function renameOrganisation(dataSource: DataSource, id: string, name: string, fail = false): Promise<EventEnvelope> {
  return dataSource.transaction(async (manager) => {
    await manager.query(`INSERT INTO ${SCHEMA}.organisations (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = $2`, [id, name]);
    const event = createEvent(OrganisationUpdated, id, { organisationId: id, name });
    await outbox.add(manager, [event]);
    if (fail) throw new Error('rolled back');
    return event;
  });
}

/** The consumer's work: runs inside the idempotent consumer's transaction. */
export async function countEvent(event: EventEnvelope, manager: EntityManager): Promise<void> {
  const { name } = event.payload as { name: string };
  await manager.query(
    `INSERT INTO ${SCHEMA}.counters (key, applied, names) VALUES ($1, 1, ARRAY[$2]) ON CONFLICT (key) DO UPDATE SET applied = counters.applied + 1, names = counters.names || $2`,
    [event.key, name],
  );
}

export async function counter(dataSource: DataSource, key: string): Promise<{ applied: number; names: string[] } | undefined> {
  return (await dataSource.query(`SELECT applied, names FROM ${SCHEMA}.counters WHERE key = $1`, [key]))[0];
}

export async function outboxRow(dataSource: DataSource, id: string): Promise<{ attempts: number; published_at: Date | null } | undefined> {
  return (await dataSource.query(`SELECT attempts, published_at FROM ${SCHEMA}.outbox_events WHERE id = $1`, [id]))[0];
}
