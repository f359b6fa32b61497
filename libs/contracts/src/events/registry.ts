import { z } from 'zod';
import { EventEnvelope, eventEnvelopeSchema } from './envelope';
import { Topic, topicOf } from './topics';

export interface EventContract<TSchema extends z.ZodType = z.ZodType> {
  type: string;
  version: number;
  topic: Topic;
  summary: string;
  payload: TSchema;
}

const contracts = new Map<string, EventContract>();
const contractKey = (type: string, version: number) => `${type}@v${version}`;

/** Declares an event type and the schema of its payload; validated on publish and on consume. */
export function defineEvent<TSchema extends z.ZodType>(type: string, version: number, summary: string, payload: TSchema): EventContract<TSchema> {
  const contract: EventContract<TSchema> = { type, version, topic: topicOf(type), summary, payload };
  contracts.set(contractKey(type, version), contract);
  return contract;
}

export function allEventContracts(): EventContract[] {
  return [...contracts.values()];
}

export class InvalidEventError extends Error {
  constructor(
    message: string,
    readonly issues: unknown,
  ) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

/** Validates the envelope and its payload against the registered contract. */
export function validateEnvelope(envelope: unknown): EventEnvelope {
  const parsed = eventEnvelopeSchema.safeParse(envelope);
  if (!parsed.success) throw new InvalidEventError('Malformed event envelope', parsed.error.issues);
  const contract = contracts.get(contractKey(parsed.data.type, parsed.data.version));
  if (!contract) throw new InvalidEventError(`Unknown event ${parsed.data.type} v${parsed.data.version}`, []);
  const payload = contract.payload.safeParse(parsed.data.payload);
  if (!payload.success) throw new InvalidEventError(`Invalid payload for ${parsed.data.type} v${parsed.data.version}`, payload.error.issues);
  return { ...parsed.data, payload: payload.data } as EventEnvelope;
}

/** Builds an envelope for a declared event; the payload is validated here, before it is stored. */
export function createEvent<TSchema extends z.ZodType>(
  contract: EventContract<TSchema>,
  key: string,
  payload: z.input<TSchema>,
  options: { correlationId?: string; id?: string; occurredAt?: Date } = {},
): EventEnvelope<z.output<TSchema>> {
  const envelope = {
    id: options.id ?? globalThis.crypto.randomUUID(),
    type: contract.type,
    version: contract.version,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    key,
    payload,
    ...(options.correlationId ? { correlationId: options.correlationId } : {}),
  };
  return validateEnvelope(envelope) as EventEnvelope<z.output<TSchema>>;
}
