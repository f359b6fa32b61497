import { EventEnvelope } from '@dc/contracts';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

/** What the messaging code writes to: a pino logger and Nest's Logger both fit. */
export interface MessagingLogger {
  debug(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Carries versioned event envelopes between services. Used as its own Nest injection token.
 *
 * - publish validates every envelope (validateEnvelope) before anything is sent; one invalid
 *   envelope rejects the whole call and nothing of it is sent. It resolves once the events are as
 *   safe as the bus can make them (Kafka: acknowledged by the in-sync replicas; in-process, where
 *   memory dies with the process: handled by every subscribed group), so the outbox relay may
 *   mark them published.
 * - subscribe joins a consumer group: every group receives every event of its types, the members of
 *   one group share them (each event is handled once per group), events with the same key are
 *   handled in order, and a group that is new starts from the oldest retained event.
 *   Calling subscribe again with the same groupId on the same bus adds a member to that group
 *   (a competing consumer); it must name the same event types, otherwise it is rejected.
 * - Delivery is at-least-once: handlers must be idempotent (see IdempotentConsumer). A handler that
 *   keeps failing is retried a bounded number of times, then the failure is logged and the event
 *   skipped; an event that fails validation on consume is logged and skipped.
 */
export abstract class EventBus {
  /** Connects; publish and subscribe also connect lazily. Idempotent. */
  abstract start(): Promise<void>;
  abstract publish(events: EventEnvelope[]): Promise<void>;
  abstract subscribe(groupId: string, eventTypes: string[], handler: EventHandler): Promise<void>;
  /** Readiness: resolves when the bus can carry events now (Kafka: the cluster answers), rejects with the reason otherwise. */
  abstract check(): Promise<void>;
  /** Stops consuming and disconnects. Idempotent; publish and subscribe reject afterwards. */
  abstract close(): Promise<void>;
}

export class EventBusClosedError extends Error {
  constructor() {
    super('The event bus is closed');
    this.name = 'EventBusClosedError';
  }
}
