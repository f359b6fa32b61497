import { randomUUID } from 'node:crypto';
import { createEvent, EventEnvelope, OrganisationUpdated } from '@dc/contracts';
import { createTestDatabase, describeInfra, isKcatInstalled, KafkaMock, startKafkaMock, TestDatabase } from '@dc/testing';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventBus } from './event-bus';
import { IdempotentConsumer, subscribeIdempotent } from './idempotent-consumer';
import { InProcessEventBus } from './in-process-event-bus';
import { KafkaEventBus } from './kafka-event-bus';
import { createMessagingMigration } from './messaging-migration';
import { OutboxRelay } from './outbox-relay';
import {
  counter as counterOf,
  countEvent,
  CounterTables,
  outboxRow,
  quietLogger as quiet,
  renameOrganisation as rename,
  SCHEMA,
} from './testing/counters.fixture';

// A relay killed mid-flight (SIGKILL in its own process) is outbox-crash.spec.ts.

/** A bus that refuses everything, as the broker does during an outage. */
class BrokenBus extends EventBus {
  attempts = 0;
  async start() {}
  async publish(): Promise<void> {
    this.attempts++;
    throw new Error('broker unreachable');
  }
  async subscribe() {}
  async check() {}
  async close() {}
}

function outboxSuite(busName: string, newBus: () => EventBus) {
  describe(`outbox and idempotent consumers over the ${busName} bus`, () => {
    let db: TestDatabase;
    let dataSource: DataSource;
    const cleanup: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      db = await createTestDatabase('dc_messaging');
      dataSource = new DataSource({
        type: 'postgres',
        url: db.url,
        migrations: [createMessagingMigration(SCHEMA), CounterTables],
        logging: false,
      });
      await dataSource.initialize();
      await dataSource.runMigrations();
    });

    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    afterAll(async () => {
      await dataSource?.destroy();
      await db?.drop();
    });

    const started = async <T extends { close(): Promise<void> } | { stop(): Promise<void> }>(thing: T): Promise<T> => {
      cleanup.push(() => ('close' in thing ? thing.close() : thing.stop()));
      return thing;
    };
    const openBus = async () => {
      const bus = await started(newBus());
      await bus.start();
      return bus;
    };
    const relayOver = (bus: EventBus) =>
      started(new OutboxRelay({ dataSource, schema: SCHEMA, bus, logger: quiet, pollIntervalMs: 50, minBackoffMs: 10, maxBackoffMs: 100 }));

    const renameOrganisation = (id: string, name: string, fail = false) => rename(dataSource, id, name, fail);
    const countingConsumer = (bus: EventBus, groupId: string) => subscribeIdempotent(bus, dataSource, SCHEMA, groupId, [OrganisationUpdated.type], countEvent);
    const counter = (key: string) => counterOf(dataSource, key);
    const pendingRows = (id: string) => outboxRow(dataSource, id);

    it('never publishes events whose transaction rolled back', async () => {
      const bus = await openBus();
      const key = randomUUID();
      await countingConsumer(bus, `rollback-${randomUUID()}`);
      await expect(renameOrganisation(key, 'never', true)).rejects.toThrow('rolled back');
      const committed = await renameOrganisation(key, 'committed');
      const relay = await relayOver(bus);
      await relay.start();
      relay.nudge();
      await waitFor(async () => (await counter(key))?.applied === 1);
      // Same key, same order: the rolled-back event would have been applied before the committed one.
      expect(await counter(key)).toEqual({ applied: 1, names: ['committed'] });
      expect(await dataSource.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.outbox_events WHERE key = $1`, [key])).toEqual([{ n: 1 }]);
      await waitFor(async () => (await pendingRows(committed.id))?.published_at != null);
    });

    it('keeps an event pending while the broker refuses it, and publishes it once the broker is back', async () => {
      const key = randomUUID();
      const event = await renameOrganisation(key, 'first');

      const broken = new BrokenBus();
      const failing = new OutboxRelay({ dataSource, schema: SCHEMA, bus: broken, logger: quiet, minBackoffMs: 10, maxBackoffMs: 20 });
      await failing.start();
      await waitFor(async () => broken.attempts >= 2);
      await failing.stop();
      expect(await pendingRows(event.id)).toMatchObject({ published_at: null });
      expect((await pendingRows(event.id))?.attempts).toBeGreaterThanOrEqual(2);

      const bus = await openBus();
      await countingConsumer(bus, `outage-${randomUUID()}`);
      const relay = await relayOver(bus);
      await relay.start();
      await waitFor(async () => (await counter(key))?.applied === 1);
      await waitFor(async () => (await pendingRows(event.id))?.published_at != null);
      expect(await counter(key)).toEqual({ applied: 1, names: ['first'] });
    });

    it('skips an event id the consumer group already processed, and retries one whose work failed', async () => {
      const consumer = new IdempotentConsumer(dataSource, SCHEMA);
      const groupId = `direct-${randomUUID()}`;
      const key = randomUUID();
      const event: EventEnvelope = createEvent(OrganisationUpdated, key, { organisationId: key, name: 'once' });
      const applied: string[] = [];
      const work = async () => void applied.push(event.id);
      await expect(consumer.handle(groupId, event, async () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
      expect(await consumer.handle(groupId, event, work)).toBe(true);
      expect(await consumer.handle(groupId, event, work)).toBe(false);
      expect(await consumer.handle(`other-${groupId}`, event, work)).toBe(true);
      expect(applied).toEqual([event.id, event.id]);
    });

    it('publishes a backlog in write order', async () => {
      const bus = await openBus();
      const key = randomUUID();
      const names = Array.from({ length: 25 }, (_, i) => `n${i}`);
      for (const name of names) await renameOrganisation(key, name);
      await countingConsumer(bus, `backlog-${randomUUID()}`);
      const relay = new OutboxRelay({ dataSource, schema: SCHEMA, bus, logger: quiet, batchSize: 10 });
      expect(await relay.drain()).toBeGreaterThanOrEqual(25);
      await waitFor(async () => (await counter(key))?.applied === 25);
      expect((await counter(key))?.names).toEqual(names);
    });
  });
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 25));
}

outboxSuite('in-process', () => new InProcessEventBus({ logger: quiet }));

describeInfra('outbox over kafka', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let mock: KafkaMock;
  jest.setTimeout(60000);
  beforeAll(async () => {
    mock = await startKafkaMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });
  outboxSuite(
    'kafka',
    () =>
      new KafkaEventBus({
        brokers: mock.brokers,
        clientId: 'outbox-test',
        logLevel: logLevel.NOTHING,
        logger: quiet,
        sessionTimeoutMs: 3000,
        heartbeatIntervalMs: 500,
        maxWaitTimeMs: 100,
      }),
  );
});
