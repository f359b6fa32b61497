import { randomUUID } from 'node:crypto';
import { OrganisationUpdated } from '@dc/contracts';
import {
  createTestDatabase,
  describeInfra,
  eventually,
  isKcatInstalled,
  KafkaMock,
  RunningProcess,
  startKafkaMock,
  startTypeScript,
  TestDatabase,
  waitForLine,
} from '@dc/testing';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { IdempotentConsumer } from './idempotent-consumer';
import { KafkaEventBus } from './kafka-event-bus';
import { createMessagingMigration } from './messaging-migration';
import { counter, countEvent, CounterTables, outboxRow, quietLogger, renameOrganisation, SCHEMA } from './testing/counters.fixture';

/**
 * The relay runs in a process of its own (testing/relay-process.fixture.ts) and is killed with
 * SIGKILL at a chosen point after the state change committed: before the bus has the event, after
 * the bus has it but before the row is marked, or (in-process bus) after the consumer applied it
 * but before the relay marked it. A new relay then delivers the event, and it is applied once.
 */
const RELAY = 'libs/messaging/src/testing/relay-process.fixture.ts';
type PausePoint = 'before-publish' | 'after-publish' | 'after-handling';

jest.setTimeout(120_000);

interface BusUnderTest {
  /** Environment of the relay process: which bus, and where the consumer runs. */
  relayEnv(groupId: string): Record<string, string>;
  /** Starts a consumer outside the relay process, for a bus that crosses processes; returns how to stop it. */
  consumeElsewhere?(dataSource: DataSource, groupId: string, delivered: (id: string) => void): Promise<() => Promise<void>>;
}

function crashSuite(busName: string, bus: () => BusUnderTest, cases: { pauseAt: PausePoint; deliveriesOfFirst: number }[]) {
  describe(`outbox relay killed mid-flight, ${busName} bus`, () => {
    let db: TestDatabase;
    let dataSource: DataSource;
    const relays: RunningProcess[] = [];
    const cleanup: (() => Promise<unknown>)[] = [];
    const deliveredElsewhere: string[] = [];

    beforeEach(async () => {
      db = await createTestDatabase('dc_outbox_crash');
      dataSource = new DataSource({ type: 'postgres', url: db.url, migrations: [createMessagingMigration(SCHEMA), CounterTables], logging: false });
      await dataSource.initialize();
      await dataSource.runMigrations();
    });

    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
      await Promise.all(relays.splice(0).map((relay) => relay.stop()));
      deliveredElsewhere.length = 0;
      await dataSource?.destroy();
      await db?.drop();
    });

    const startRelay = (env: Record<string, string>) => {
      const relay = startTypeScript('relay', RELAY, { DATABASE_URL: db.url, ...env });
      relays.push(relay);
      return relay;
    };
    /** How often the consumer group received the event, in whichever process it ran. */
    const deliveries = (id: string) =>
      deliveredElsewhere.filter((delivered) => delivered === id).length +
      relays.flatMap((relay) => relay.lines).filter((line) => line === JSON.stringify({ delivered: id })).length;

    for (const { pauseAt, deliveriesOfFirst } of cases) {
      it(`delivers the event after the relay is killed ${pauseAt.replace('-', ' ')}, and applies it once`, async () => {
        const { relayEnv, consumeElsewhere } = bus();
        const groupId = `crash-${randomUUID()}`;
        if (consumeElsewhere) cleanup.push(await consumeElsewhere(dataSource, groupId, (id) => deliveredElsewhere.push(id)));
        const key = randomUUID();
        const event = await renameOrganisation(dataSource, key, 'first');

        const dying = startRelay({ ...relayEnv(groupId), PAUSE_AT: pauseAt });
        const paused = JSON.parse(await waitForLine(dying, (line) => line.startsWith('{"paused"')));
        expect(paused).toEqual({ paused: pauseAt, events: [event.id] });
        if (pauseAt === 'before-publish') expect(deliveries(event.id)).toBe(0);
        if (pauseAt === 'after-handling') expect(await counter(dataSource, key)).toEqual({ applied: 1, names: ['first'] });
        dying.process.kill('SIGKILL');
        await dying.exited;
        expect(await outboxRow(dataSource, event.id)).toMatchObject({ published_at: null });
        // Whatever reached the consumer before the kill stays applied.
        if (pauseAt === 'after-publish') await eventually(async () => expect(await counter(dataSource, key)).toEqual({ applied: 1, names: ['first'] }));

        const relay = startRelay(relayEnv(groupId));
        await waitForLine(relay, (line) => line === '{"ready":true}');
        await eventually(async () => expect((await outboxRow(dataSource, event.id))?.published_at).toBeInstanceOf(Date));
        // A later event on the same key arrives after every delivery of the first one.
        const later = await renameOrganisation(dataSource, key, 'second');
        await eventually(async () => expect((await counter(dataSource, key))?.names).toContain('second'));
        expect(await counter(dataSource, key)).toEqual({ applied: 2, names: ['first', 'second'] });
        expect(deliveries(later.id)).toBe(1);
        expect(deliveries(event.id)).toBe(deliveriesOfFirst);
      });
    }
  });
}

// The in-process bus reaches only its own process: the consumer runs inside the relay's process and dies with it.
crashSuite('in-process', () => ({ relayEnv: (groupId) => ({ BUS_DRIVER: 'in-process', CONSUMER_GROUP: groupId }) }), [
  { pauseAt: 'before-publish', deliveriesOfFirst: 1 },
  { pauseAt: 'after-handling', deliveriesOfFirst: 2 },
  { pauseAt: 'after-publish', deliveriesOfFirst: 2 },
]);

describeInfra('outbox relay killed mid-flight over kafka', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let mock: KafkaMock;
  beforeAll(async () => {
    mock = await startKafkaMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  // The consumer is another process's business: here it runs in the test, and survives the relay.
  crashSuite(
    'kafka',
    () => ({
      relayEnv: () => ({ BUS_DRIVER: 'kafka', KAFKA_BROKERS: mock.bootstrapServers }),
      async consumeElsewhere(dataSource, groupId, delivered) {
        const consumerBus = new KafkaEventBus({
          brokers: mock.brokers,
          clientId: 'crash-consumer',
          logLevel: logLevel.NOTHING,
          logger: quietLogger,
          sessionTimeoutMs: 3000,
          heartbeatIntervalMs: 500,
          maxWaitTimeMs: 100,
        });
        const consumer = new IdempotentConsumer(dataSource, SCHEMA);
        await consumerBus.subscribe(groupId, [OrganisationUpdated.type], async (event) => {
          delivered(event.id);
          await consumer.handle(groupId, event, (manager) => countEvent(event, manager));
        });
        return () => consumerBus.close();
      },
    }),
    [
      { pauseAt: 'before-publish', deliveriesOfFirst: 1 },
      { pauseAt: 'after-publish', deliveriesOfFirst: 2 },
    ],
  );
});
