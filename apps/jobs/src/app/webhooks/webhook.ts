import {
  type EventEnvelope,
  JobCompleted,
  JobRequested,
  JobStarted,
  RecordCreated,
  RecordDeleted,
  RecordUpdated,
  RequestCreated,
  RequestMessagePosted,
  RequestUpdated,
} from '@dc/contracts';

/** The event types an endpoint may choose (docs/webhooks.md): the product's own, as docs/asyncapi.yaml describes them. */
export const WEBHOOK_EVENT_TYPES = [
  RecordCreated.type,
  RecordUpdated.type,
  RecordDeleted.type,
  RequestCreated.type,
  RequestUpdated.type,
  RequestMessagePosted.type,
  JobCompleted.type,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What "Send test event" sends: not a product event, so never chosen, always allowed. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** The events the webhooks consumer follows: those it forwards, and job.requested / job.started for whose job a job.completed is. */
export const WEBHOOK_CONSUMED_TYPES = [...WEBHOOK_EVENT_TYPES, JobRequested.type, JobStarted.type];

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface WebhookEndpoint {
  id: string;
  organisationId: string;
  url: string;
  description: string;
  eventTypes: string[];
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery claimed for sending, with what is needed to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  body: string;
  attempts: number;
  url: string;
  endpointId: string;
  secretSealed: string;
}

export interface WebhookSettings {
  attemptTimeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  concurrency: number;
  pollMs: number;
}

/**
 * The wait before the next attempt after `failures` failed ones: the base times 3 to the power of
 * the failures before (10 s, 30 s, 1.5 min, 4.5 min, ... with the default base), at most the cap.
 */
export function retryDelayMs(failures: number, settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryMaxMs'>): number {
  return Math.min(settings.retryMaxMs, settings.retryBaseMs * 3 ** Math.max(0, failures - 1));
}

/**
 * The webhook body: the event exactly as it travels on Kafka (docs/asyncapi.yaml) - its envelope
 * {id, type, version, occurredAt, key, payload} - without the internal correlation id.
 */
export function webhookBody(event: EventEnvelope): string {
  const { id, type, version, occurredAt, key, payload } = event;
  return JSON.stringify({ id, type, version, occurredAt, key, payload });
}

/** The request or job whose noted parties say whom the event is about, when its payload does not. */
export function partiesKeyOf(event: EventEnvelope): string | undefined {
  if (event.type === RequestMessagePosted.type) return RequestMessagePosted.payload.parse(event.payload).requestId;
  if (event.type === JobCompleted.type) return JobCompleted.payload.parse(event.payload).jobId;
  return undefined;
}

/**
 * The organisations an event is about (whose endpoints may hear of it), from its payload, or from
 * the parties noted for its request or job (`noted`, see partiesKeyOf) where the payload does not
 * say: a record's owner organisation; a request's record owner organisation and the requestor's
 * organisation (both are parties of it and see it in the product); a job's owner organisation.
 */
export function organisationsOf(event: EventEnvelope, noted: string[] | undefined): string[] {
  switch (event.type) {
    case RecordCreated.type:
    case RecordUpdated.type:
      return [RecordCreated.payload.parse(event.payload).organisationId];
    case RecordDeleted.type:
      return [RecordDeleted.payload.parse(event.payload).organisationId];
    case RequestCreated.type:
    case RequestUpdated.type:
      return requestParties(RequestCreated.payload.parse(event.payload));
    case RequestMessagePosted.type:
    case JobCompleted.type:
      return noted ?? [];
    default:
      return [];
  }
}

export const requestParties = (request: { organisationId: string; requestorOrganisationId: string }) => [
  ...new Set([request.organisationId, request.requestorOrganisationId]),
];

/** Whether the URL may be registered: absolute http(s), no credentials in it. */
export function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a valid URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// or http://.';
  if (url.username || url.password) return 'The URL may not contain a user name or password.';
  return undefined;
}
