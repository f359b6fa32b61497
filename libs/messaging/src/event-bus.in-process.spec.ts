import { eventBusContract } from './event-bus.contract';
import { InProcessEventBus } from './in-process-event-bus';

const quiet = { debug: () => undefined, warn: () => undefined, error: () => undefined };

eventBusContract('in-process', async () => new InProcessEventBus({ logger: quiet, retryDelayMs: 10 }));
