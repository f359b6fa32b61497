import { EventEnvelope, InvalidEventError, validateEnvelope } from '@dc/contracts';
import { EventHandler, MessagingLogger } from './event-bus';

export interface DeliveryOptions {
  /** How many times a handler is tried before its failure is logged and the event skipped. */
  handlerAttempts?: number;
  /** Delay before the first retry; doubles on each further retry. */
  retryDelayMs?: number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function describeError(error: unknown): string {
  if (error instanceof InvalidEventError) return `${error.message} ${JSON.stringify(error.issues)}`;
  return error instanceof Error ? error.message : String(error);
}

/** Parses and validates what came off the wire; undefined (after logging) when it is not a valid event. */
export function decodeEvent(raw: string | undefined, logger: MessagingLogger, where: string): EventEnvelope | undefined {
  if (raw === undefined) {
    logger.warn(`${where}: skipped an empty message`);
    return undefined;
  }
  try {
    return validateEnvelope(JSON.parse(raw));
  } catch (error) {
    logger.warn(`${where}: skipped an invalid event: ${describeError(error)}`);
    return undefined;
  }
}

/**
 * Runs a handler, retrying a bounded number of times. Never throws: a consumer must keep going
 * after one bad event. (Running it under the event's correlation id is the caller's business:
 * messaging does not depend on the platform library.)
 */
export async function deliver(
  event: EventEnvelope,
  groupId: string,
  handler: EventHandler,
  logger: MessagingLogger,
  options: DeliveryOptions,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  const attempts = Math.max(1, options.handlerAttempts ?? 3);
  let delay = options.retryDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      await handler(event);
      return;
    } catch (error) {
      const what = `group ${groupId}: handler failed for ${event.type} ${event.id} (attempt ${attempt}/${attempts})`;
      if (attempt >= attempts || shouldStop()) {
        logger.error(`${what}, giving up: ${describeError(error)}`);
        return;
      }
      logger.warn(`${what}, retrying: ${describeError(error)}`);
      await sleep(delay);
      delay *= 2;
    }
  }
}
