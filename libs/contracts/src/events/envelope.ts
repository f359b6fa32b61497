import { z } from 'zod';

/** Every event travels in this versioned envelope (Kafka value, outbox row, in-process message). */
export const eventEnvelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.string().datetime({ offset: true }),
  key: z.string().min(1),
  payload: z.unknown(),
  correlationId: z.string().optional(),
});

export interface EventEnvelope<TPayload = unknown> {
  id: string;
  type: string;
  version: number;
  occurredAt: string;
  /** Partition key: the id of the aggregate the event is about, so its events stay ordered. */
  key: string;
  payload: TPayload;
  /** Follows a call from the gateway into services and the events it causes. */
  correlationId?: string;
}
