import { isoDateTime, pagedSchema } from '@dc/platform';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhook';

const REQUIRED = 'This field is required.';
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `Choose from ${WEBHOOK_EVENT_TYPES.join(', ')}.` }), { error: 'Choose at least one event type.' })
  .min(1, 'Choose at least one event type.')
  .transform((types) => [...new Set(types)])
  .describe('The event types the endpoint hears of (docs/asyncapi.yaml describes each).');
const url = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(2000, 'Ensure this field has no more than 2000 characters.')
  .describe('Where deliveries are POSTed: http(s), through the address guard (ALLOWED_PRIVATE_ENDPOINTS).');
const description = z.string().trim().max(200, 'Ensure this field has no more than 200 characters.').describe('What the endpoint is for.');

export const createEndpointSchema = z.object({
  url,
  description: description.default(''),
  event_types: eventTypes,
  active: z.boolean().default(true),
});
export type CreateEndpointDto = z.output<typeof createEndpointSchema>;

export const updateEndpointSchema = z.object({
  url: url.optional(),
  description: description.optional(),
  event_types: eventTypes.optional(),
  active: z.boolean().optional().describe('false: no deliveries are made or sent until it is true again.'),
});
export type UpdateEndpointDto = z.output<typeof updateEndpointSchema>;

export const endpointViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()),
  active: z.boolean(),
  created: isoDateTime,
  updated: isoDateTime,
});

export const endpointWithSecretSchema = endpointViewSchema.extend({
  secret: z.string().describe('whsec_ and base64: the signing secret, shown this once (docs/webhooks.md says how to verify).'),
});

export const endpointListSchema = z.object({ results: z.array(endpointViewSchema) });

export const secretSchema = z.object({ secret: z.string().describe('The new signing secret, shown this once; the old one stops at once.') });

export const deliveryViewSchema = z.object({
  id: z.string(),
  webhook_id: z.string().describe('The webhook-id header: the same on every attempt, so receivers can drop repeats.'),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'dead']).describe('pending: waiting or being sent; delivered: answered 2xx; dead: gave up after the last attempt.'),
  attempts: z.number().int(),
  next_attempt: isoDateTime.nullable().describe('pending only: when it is sent (again).'),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt: isoDateTime.nullable(),
  delivered: isoDateTime.nullable(),
  created: isoDateTime,
});

export const deliveriesPageSchema = pagedSchema(deliveryViewSchema);
