import { api } from '../api/client';

/** The event types an endpoint may choose, as the jobs service lists them (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  { type: 'record.created', label: 'Record created' },
  { type: 'record.updated', label: 'Record updated' },
  { type: 'record.deleted', label: 'Record deleted' },
  { type: 'request.created', label: 'Request created' },
  { type: 'request.updated', label: 'Request status changed' },
  { type: 'request.message-posted', label: 'Request message posted' },
  { type: 'job.completed', label: 'Job completed' },
] as const;

export const eventTypeLabel = (type: string) => WEBHOOK_EVENT_TYPES.find((e) => e.type === type)?.label ?? (type === 'webhook.test' ? 'Test event' : type);

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  active: boolean;
  created: string;
  updated: string;
}

export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_attempt: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt: string | null;
  delivered: string | null;
  created: string;
}

interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: (endpointId: string) => ['webhooks', endpointId, 'deliveries'] as const,
};

/** The calls of /api/webhooks (Data Admins of the organisation). */
export const webhooksApi = {
  list: async (signal?: AbortSignal) => (await api.get<{ results: WebhookEndpoint[] }>('/api/webhooks/', { signal })).results,
  create: (body: { url: string; description: string; event_types: string[] }) => api.post<WebhookEndpoint & { secret: string }>('/api/webhooks/', body),
  update: (id: string, body: Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'event_types' | 'active'>>) =>
    api.patch<WebhookEndpoint>(`/api/webhooks/${id}/`, body),
  remove: (id: string) => api.delete<void>(`/api/webhooks/${id}/`),
  rotateSecret: (id: string) => api.post<{ secret: string }>(`/api/webhooks/${id}/rotate-secret/`),
  deliveries: (id: string, signal?: AbortSignal) => api.get<Page<WebhookDelivery>>(`/api/webhooks/${id}/deliveries/`, { query: { page_size: 20 }, signal }),
  sendTest: (id: string) => api.post<WebhookDelivery>(`/api/webhooks/${id}/test/`),
  resend: (id: string, deliveryId: string) => api.post<WebhookDelivery>(`/api/webhooks/${id}/deliveries/${deliveryId}/resend/`),
};
