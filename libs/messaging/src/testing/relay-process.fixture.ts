/**
 * An outbox relay in a process of its own, for outbox-crash.spec.ts to kill with SIGKILL at a
 * chosen point. Run with tools/scripts/run-ts.cjs. Environment:
 *   DATABASE_URL    the database holding the `svc` schema (migrated by the test)
 *   BUS_DRIVER      `in-process` or `kafka` (then KAFKA_BROKERS)
 *   CONSUMER_GROUP  also run the counting consumer here (the in-process bus reaches no other process)
 *   PAUSE_AT        `before-publish`: the relay holds the committed rows and stops before the bus has them;
 *                   `after-publish`: the bus accepted them, the relay has not marked them published;
 *                   `after-handling`: the consumer committed its work, the handler has not returned
 * It prints one JSON line per step ({"ready"}, {"delivered"}, {"paused"}) and stands still once
 * paused, until it is killed.
 */
import { EventEnvelope, OrganisationUpdated } from '@dc/contracts';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventBus, EventHandler } from '../event-bus';
import { IdempotentConsumer } from '../idempotent-consumer';
import { InProcessEventBus } from '../in-process-event-bus';
import { KafkaEventBus } from '../kafka-event-bus';
import { OutboxRelay } from '../outbox-relay';
import { countEvent, quietLogger, SCHEMA } from './counters.fixture';

type PausePoint = 'before-publish' | 'after-publish' | 'after-handling';

const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Announces the pause and never resolves: the process waits there to be killed. */
function pause(at: PausePoint, events: EventEnvelope[]): Promise<never> {
  say({ paused: at, events: events.map((event) => event.id) });
  return new Promise(() => setInterval(() => undefined, 60_000));
}

/** The real bus, with a stop before or after it accepts the relay's first batch. */
class PausingBus extends EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly pauseAt: PausePoint | undefined,
  ) {
    super();
  }
  start() {
    return this.inner.start();
  }
  async publish(events: EventEnvelope[]) {
    if (this.pauseAt === 'before-publish') await pause('before-publish', events);
    await this.inner.publish(events);
    if (this.pauseAt === 'after-publish') await pause('after-publish', events);
  }
  subscribe(groupId: string, eventTypes: string[], handler: EventHandler) {
    return this.inner.subscribe(groupId, eventTypes, handler);
  }
  check() {
    return this.inner.check();
  }
  close() {
    return this.inner.close();
  }
}

async function main() {
  const env = process.env;
  const pauseAt = (env.PAUSE_AT || undefined) as PausePoint | undefined;
  const dataSource = await new DataSource({ type: 'postgres', url: env.DATABASE_URL, logging: false }).initialize();
  const inner =
    env.BUS_DRIVER === 'kafka'
      ? new KafkaEventBus({ brokers: (env.KAFKA_BROKERS ?? '').split(','), clientId: 'relay-process', logLevel: logLevel.NOTHING, logger: quietLogger })
      : new InProcessEventBus({ logger: quietLogger });
  const bus = new PausingBus(inner, pauseAt);
  await bus.start();

  const groupId = env.CONSUMER_GROUP;
  if (groupId) {
    const consumer = new IdempotentConsumer(dataSource, SCHEMA);
    await bus.subscribe(groupId, [OrganisationUpdated.type], async (event) => {
      say({ delivered: event.id });
      await consumer.handle(groupId, event, (manager) => countEvent(event, manager));
      if (pauseAt === 'after-handling') await pause('after-handling', [event]);
    });
  }

  const relay = new OutboxRelay({ dataSource, schema: SCHEMA, bus, logger: quietLogger, pollIntervalMs: 50 });
  await relay.start();
  say({ ready: true });

  process.once('SIGTERM', () => {
    void (async () => {
      await relay.stop();
      await bus.close();
      await dataSource.destroy();
      process.exit(0);
    })();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
