import { randomUUID } from 'node:crypto';
import { createEvent, EventEnvelope, InvalidEventError, OrganisationUpdated, UserUpdated } from '@dc/contracts';
import { EventBus } from './event-bus';

/** Waits until the condition holds; the test's own timeout bounds it. */
export async function eventually(condition: () => boolean, pollMs = 20): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, pollMs));
}

const organisationEvent = (key: string, name: string, correlationId?: string) =>
  createEvent(OrganisationUpdated, key, { organisationId: key, name }, { correlationId });

/** Collects what a handler received, keeping only the events this test published. */
class Received {
  readonly events: EventEnvelope[] = [];
  constructor(private readonly ids: Set<string>) {}
  readonly handler = async (event: EventEnvelope) => {
    if (this.ids.has(event.id)) this.events.push(event);
  };
  count = () => this.events.length;
}

/**
 * The behaviour every EventBus adapter must show. `factory` returns a fresh bus; buses are closed
 * after each test. Group ids are unique per test: a broker keeps its topics between tests, and a
 * new group starts from the beginning, so each test filters the events it published itself.
 */
export function eventBusContract(name: string, factory: () => Promise<EventBus>, options: { timeoutMs?: number } = {}): void {
  describe(`EventBus contract: ${name}`, () => {
    const buses: EventBus[] = [];
    const newBus = async () => {
      const bus = await factory();
      buses.push(bus);
      await bus.start();
      return bus;
    };
    const group = (label: string) => `${label}-${randomUUID()}`;

    if (options.timeoutMs) jest.setTimeout(options.timeoutMs);

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });

    it('delivers a published event to a subscriber', async () => {
      const bus = await newBus();
      const event = organisationEvent(randomUUID(), 'Acme');
      const received = new Received(new Set([event.id]));
      await bus.subscribe(group('single'), [OrganisationUpdated.type], received.handler);
      await bus.publish([event]);
      await eventually(() => received.count() === 1);
      expect(received.events[0]).toEqual(event);
    });

    it('delivers every event to each consumer group', async () => {
      const bus = await newBus();
      const events = Array.from({ length: 5 }, (_, i) => organisationEvent(randomUUID(), `org ${i}`));
      const ids = new Set(events.map((e) => e.id));
      const first = new Received(ids);
      const second = new Received(ids);
      await bus.subscribe(group('first'), [OrganisationUpdated.type], first.handler);
      await bus.subscribe(group('second'), [OrganisationUpdated.type], second.handler);
      await bus.publish(events);
      await eventually(() => first.count() === 5 && second.count() === 5);
      expect(first.events.map((e) => e.id).sort()).toEqual([...ids].sort());
      expect(second.events.map((e) => e.id).sort()).toEqual([...ids].sort());
    });

    it('shares events between the members of one group: each is handled once', async () => {
      const bus = await newBus();
      const groupId = group('shared');
      const keys = Array.from({ length: 20 }, () => randomUUID());
      const firstRound = keys.map((key) => organisationEvent(key, 'one'));
      // A second round on the same keys: any redelivery of the first would reach its member before it.
      const secondRound = keys.map((key) => organisationEvent(key, 'two'));
      const ids = new Set([...firstRound, ...secondRound].map((e) => e.id));
      const memberA = new Received(ids);
      const memberB = new Received(ids);
      await bus.subscribe(groupId, [OrganisationUpdated.type], memberA.handler);
      await bus.subscribe(groupId, [OrganisationUpdated.type], memberB.handler);
      await bus.publish(firstRound);
      await bus.publish(secondRound);
      await eventually(() => memberA.count() + memberB.count() >= ids.size);
      const handled = [...memberA.events, ...memberB.events].map((e) => e.id);
      // Exactly once within the group. Which member gets what depends on when the second one's
      // join completes (a rebalance on Kafka), so a split between them is not asserted.
      expect(handled.sort()).toEqual([...ids].sort());
    });

    it('rejects a second member of a group that names other event types', async () => {
      const bus = await newBus();
      const groupId = group('mismatch');
      await bus.subscribe(groupId, [OrganisationUpdated.type], async () => undefined);
      await expect(bus.subscribe(groupId, [UserUpdated.type], async () => undefined)).rejects.toThrow('same event types');
    });

    it('keeps the events of one key in order', async () => {
      const bus = await newBus();
      const keys = [randomUUID(), randomUUID(), randomUUID()];
      const batches = Array.from({ length: 10 }, (_, i) => keys.map((key) => organisationEvent(key, String(i))));
      const ids = new Set(batches.flat().map((e) => e.id));
      const received = new Received(ids);
      await bus.subscribe(group('ordered'), [OrganisationUpdated.type], received.handler);
      for (const batch of batches) await bus.publish(batch);
      await eventually(() => received.count() === ids.size);
      for (const key of keys) {
        const names = received.events.filter((e) => e.key === key).map((e) => Number((e.payload as { name: string }).name));
        expect(names).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      }
    });

    it('rejects an invalid event at publish, and sends nothing of that batch', async () => {
      const bus = await newBus();
      const key = randomUUID();
      const valid = organisationEvent(key, 'valid but in a rejected batch');
      const invalid = { ...organisationEvent(key, 'x'), id: randomUUID(), payload: { organisationId: key } };
      const unknownType = { ...organisationEvent(key, 'x'), id: randomUUID(), type: 'organisation.vanished' };
      await expect(bus.publish([valid, invalid])).rejects.toThrow(InvalidEventError);
      await expect(bus.publish([unknownType])).rejects.toThrow(InvalidEventError);
      const later = organisationEvent(key, 'later');
      await bus.publish([later]);
      const received = new Received(new Set([valid.id, invalid.id, unknownType.id, later.id]));
      await bus.subscribe(group('after-invalid'), [OrganisationUpdated.type], received.handler);
      // Same key, so anything sent earlier would have arrived before `later`.
      await eventually(() => received.count() >= 1);
      expect(received.events.map((e) => e.id)).toEqual([later.id]);
    });

    it('delivers events published before a new group subscribed', async () => {
      const bus = await newBus();
      const event = organisationEvent(randomUUID(), 'early');
      await bus.publish([event]);
      const received = new Received(new Set([event.id]));
      await bus.subscribe(group('late'), [OrganisationUpdated.type], received.handler);
      await eventually(() => received.count() === 1);
      expect(received.events[0].id).toBe(event.id);
    });

    it('carries the correlation id to the consumer', async () => {
      const bus = await newBus();
      const correlationId = `corr-${randomUUID()}`;
      const event = organisationEvent(randomUUID(), 'traced', correlationId);
      const received = new Received(new Set([event.id]));
      await bus.subscribe(group('traced'), [OrganisationUpdated.type], received.handler);
      await bus.publish([event]);
      await eventually(() => received.count() === 1);
      expect(received.events[0].correlationId).toBe(correlationId);
    });

    it('only delivers the subscribed event types', async () => {
      const bus = await newBus();
      const key = randomUUID();
      const user = createEvent(UserUpdated, key, { userId: key, username: 'u', organisationId: 'o', clientType: 'BASIC', active: true });
      const organisation = organisationEvent(key, 'org');
      const received = new Received(new Set([user.id, organisation.id]));
      await bus.subscribe(group('typed'), [UserUpdated.type], received.handler);
      await bus.publish([organisation, user]);
      await eventually(() => received.count() >= 1);
      expect(received.events.map((e) => e.type)).toEqual([UserUpdated.type]);
    });

    it('retries a failing handler and keeps consuming after it gives up', async () => {
      const bus = await newBus();
      const key = randomUUID();
      const flaky = organisationEvent(key, 'flaky');
      const broken = organisationEvent(key, 'broken');
      const after = organisationEvent(key, 'after');
      const ids = new Set([flaky.id, broken.id, after.id]);
      const calls: string[] = [];
      await bus.subscribe(group('failing'), [OrganisationUpdated.type], async (event) => {
        if (!ids.has(event.id)) return;
        calls.push(event.id);
        if (event.id === flaky.id && calls.filter((id) => id === flaky.id).length === 1) throw new Error('transient');
        if (event.id === broken.id) throw new Error('permanent');
      });
      await bus.publish([flaky, broken, after]);
      await eventually(() => calls.includes(after.id));
      expect(calls.filter((id) => id === flaky.id)).toHaveLength(2);
      expect(calls.filter((id) => id === broken.id).length).toBeGreaterThan(1);
    });

    it('passes its readiness check while open; closes idempotently and refuses work afterwards', async () => {
      const bus = await newBus();
      await bus.check();
      await bus.close();
      await bus.close();
      await expect(bus.publish([organisationEvent(randomUUID(), 'late')])).rejects.toThrow('closed');
      await expect(bus.check()).rejects.toThrow('closed');
    });
  });
}
