import { randomUUID } from 'node:crypto';
import { createEvent, OrganisationUpdated } from '@dc/contracts';
import { eventBusContract, eventually } from './event-bus.contract';
import { InProcessEventBus } from './in-process-event-bus';

const quiet = { debug: () => undefined, warn: () => undefined, error: () => undefined };

eventBusContract('in-process', async () => new InProcessEventBus({ logger: quiet, retryDelayMs: 10 }));

describe('in-process event bus', () => {
  it('resolves publish only once every subscribed group has handled the events (memory is not durable)', async () => {
    const bus = new InProcessEventBus({ logger: quiet });
    const key = randomUUID();
    const event = createEvent(OrganisationUpdated, key, { organisationId: key, name: 'slow' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    await bus.subscribe('slow', [OrganisationUpdated.type], async () => {
      await held;
      handled.push('slow');
    });
    await bus.subscribe('fast', [OrganisationUpdated.type], async () => void handled.push('fast'));

    let published = false;
    const publishing = bus.publish([event]).then(() => (published = true));
    await eventually(() => handled.includes('fast'));
    expect(published).toBe(false);
    release();
    await publishing;
    expect(handled).toEqual(['fast', 'slow']);
    await bus.close();
  });
});
