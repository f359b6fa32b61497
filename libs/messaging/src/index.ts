export * from './event-bus';
export type { DeliveryOptions } from './delivery';
export * from './in-process-event-bus';
export * from './kafka-event-bus';
export * from './messaging-migration';
export * from './outbox';
export * from './outbox-relay';
export * from './idempotent-consumer';
export * from './derived-uuid';
