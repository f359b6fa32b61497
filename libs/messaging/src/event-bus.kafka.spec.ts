import { randomUUID } from 'node:crypto';
import { createEvent, OrganisationUpdated, Topic } from '@dc/contracts';
import { describeInfra, isKcatInstalled, KafkaMock, startKafkaMock } from '@dc/testing';
import { Kafka, logLevel } from 'kafkajs';
import { eventBusContract, eventually } from './event-bus.contract';
import { KafkaEventBus } from './kafka-event-bus';

const messages: string[] = [];
const logger = { debug: () => undefined, warn: (m: string) => void messages.push(m), error: (m: string) => void messages.push(m) };

describeInfra('kafka event bus', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let mock: KafkaMock;

  beforeAll(async () => {
    mock = await startKafkaMock();
  });

  afterAll(async () => {
    await mock?.stop();
  });

  // Short sessions: the mock waits up to a session timeout before it completes a rebalance.
  const newBus = () =>
    new KafkaEventBus({
      brokers: mock.brokers,
      clientId: `test-${randomUUID()}`,
      logLevel: logLevel.NOTHING,
      logger,
      sessionTimeoutMs: 3000,
      heartbeatIntervalMs: 500,
      maxWaitTimeMs: 100,
      retryDelayMs: 10,
    });

  eventBusContract('kafka', async () => newBus(), { timeoutMs: 60000 });

  describe('on the wire', () => {
    jest.setTimeout(60000);
    const kafka = () => new Kafka({ brokers: mock.brokers, clientId: 'raw', logLevel: logLevel.NOTHING });

    it('keys messages by the event key, and copies the correlation id into a header', async () => {
      const bus = newBus();
      const key = randomUUID();
      const event = createEvent(OrganisationUpdated, key, { organisationId: key, name: 'wire' }, { correlationId: 'corr-wire' });
      await bus.publish([event]);
      await bus.close();
      const consumer = kafka().consumer({ groupId: `raw-${randomUUID()}`, maxWaitTimeInMs: 100 });
      const seen: { key?: string; header?: string; value: unknown }[] = [];
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [Topic.Organisation], fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            if (message.key?.toString() !== key) return;
            seen.push({
              key: message.key.toString(),
              header: message.headers?.correlationId?.toString(),
              value: JSON.parse(message.value?.toString() ?? 'null'),
            });
          },
        });
        await eventually(() => seen.length === 1);
      } finally {
        await consumer.disconnect();
      }
      expect(seen[0]).toEqual({ key, header: 'corr-wire', value: event });
    });

    it('logs and skips messages that are not valid events, and keeps consuming', async () => {
      const producer = kafka().producer();
      const key = randomUUID();
      const valid = createEvent(OrganisationUpdated, key, { organisationId: key, name: 'after garbage' });
      await producer.connect();
      await producer.send({
        topic: Topic.Organisation,
        messages: [
          { key, value: 'not json' },
          { key, value: JSON.stringify({ ...valid, id: randomUUID(), payload: { organisationId: key } }) },
          { key, value: JSON.stringify(valid) },
        ],
      });
      await producer.disconnect();
      const bus = newBus();
      const received: string[] = [];
      try {
        await bus.subscribe(`garbage-${randomUUID()}`, [OrganisationUpdated.type], async (event) => {
          if (event.key === key) received.push(event.id);
        });
        await eventually(() => received.length === 1);
      } finally {
        await bus.close();
      }
      expect(received).toEqual([valid.id]);
      expect(messages.some((m) => m.includes('skipped an invalid event') && m.includes('Invalid payload'))).toBe(true);
    });
  });
});
