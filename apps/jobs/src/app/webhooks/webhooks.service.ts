import { HttpStatus, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DATA_ADMIN, type EventEnvelope, isUuid, listPage, pageOf } from '@dc/contracts';
import { type AuthUser, DetailError, FieldValidationError, notFound, SecretCipher, ServiceDatabase } from '@dc/platform';
import type { CreateEndpointDto, UpdateEndpointDto } from './dto';
import { urlProblem, WEBHOOK_TEST_TYPE, webhookBody, type WebhookDelivery, type WebhookEndpoint } from './webhook';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { newWebhookSecret } from './webhook-signer';
import { WebhookSender } from './webhook-sender';
import { WebhooksRepository } from './webhooks.repository';

export const ONLY_DATA_ADMINS = 'Only Data Admins of your organisation manage its webhooks.';
export const NOT_DEAD = 'Only a dead-lettered delivery can be sent again.';

const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  active: e.active,
  created: e.createdAt.toISOString(),
  updated: e.updatedAt.toISOString(),
});

const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  webhook_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  next_attempt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  last_attempt: d.lastAttemptAt?.toISOString() ?? null,
  delivered: d.deliveredAt?.toISOString() ?? null,
  created: d.createdAt.toISOString(),
});

/**
 * Webhook endpoints of an organisation (docs/webhooks.md): its Data Admins register, change and
 * remove them and read their delivery logs; an endpoint of another organisation is not found.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly db: ServiceDatabase,
    private readonly sender: WebhookSender,
    private readonly cipher: SecretCipher,
    private readonly worker: WebhookDeliveryWorker,
  ) {}

  private admin(user: AuthUser): string {
    if (!user.groups.includes(DATA_ADMIN)) throw new DetailError(ONLY_DATA_ADMINS, HttpStatus.FORBIDDEN);
    return user.organisationId;
  }

  private async endpointOf(user: AuthUser, id: string): Promise<WebhookEndpoint> {
    const organisationId = this.admin(user);
    const endpoint = isUuid(id) ? await this.repository.endpoint(id, organisationId) : undefined;
    if (!endpoint) throw notFound();
    return endpoint;
  }

  /** The URL's shape, then the address guard: 400 {"url": [why]}. */
  private async checkUrl(url: string): Promise<void> {
    const problem = urlProblem(url) ?? (await this.sender.refusal(url));
    if (problem) throw new FieldValidationError({ url: [problem] });
  }

  async list(user: AuthUser) {
    return { results: (await this.repository.endpointsOf(this.admin(user))).map(endpointView) };
  }

  async create(user: AuthUser, dto: CreateEndpointDto) {
    const organisationId = this.admin(user);
    await this.checkUrl(dto.url);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const endpoint = await this.repository.insertEndpoint(
      { id, organisationId, url: dto.url, description: dto.description, eventTypes: dto.event_types, active: dto.active },
      this.cipher.encrypt(secret, id),
      user.id,
    );
    return { ...endpointView(endpoint), secret };
  }

  async update(user: AuthUser, id: string, dto: UpdateEndpointDto) {
    const endpoint = await this.endpointOf(user, id);
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const updated = await this.repository.updateEndpoint(id, {
      url: dto.url ?? endpoint.url,
      description: dto.description ?? endpoint.description,
      eventTypes: dto.event_types ?? endpoint.eventTypes,
      active: dto.active ?? endpoint.active,
    });
    if (updated.active) this.worker.nudge();
    return endpointView(updated);
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    await this.endpointOf(user, id);
    await this.repository.deleteEndpoint(id);
  }

  async rotateSecret(user: AuthUser, id: string) {
    await this.endpointOf(user, id);
    const secret = newWebhookSecret();
    await this.repository.replaceSecret(id, this.cipher.encrypt(secret, id));
    return { secret };
  }

  async deliveries(user: AuthUser, id: string, query: { page?: unknown; page_size?: unknown }, path: string) {
    await this.endpointOf(user, id);
    const at = pageOf(query, { size: 20, max: 100 });
    const { count, items } = await this.repository.deliveries(id, at.pageSize, at.offset);
    return listPage(items.map(deliveryView), count, at, (page) => `${path.split('?')[0]}?page=${page}&page_size=${at.pageSize}`);
  }

  /** Queues a `webhook.test` delivery to the endpoint (sent in the background like any other). */
  async sendTest(user: AuthUser, id: string) {
    const endpoint = await this.endpointOf(user, id);
    const event: EventEnvelope = {
      id: randomUUID(),
      type: WEBHOOK_TEST_TYPE,
      version: 1,
      occurredAt: new Date().toISOString(),
      key: endpoint.id,
      payload: { endpointId: endpoint.id, organisationId: endpoint.organisationId, message: 'A test event from the data catalogue.' },
    };
    const [queued] = await this.db.transaction((tx) => this.repository.enqueue(tx.manager, [endpoint.id], event, webhookBody(event)));
    this.worker.nudge();
    return deliveryView(queued);
  }

  async resend(user: AuthUser, id: string, deliveryId: string) {
    await this.endpointOf(user, id);
    const delivery = isUuid(deliveryId) ? await this.repository.delivery(deliveryId, id) : undefined;
    if (!delivery) throw notFound();
    if (delivery.status !== 'dead') throw new DetailError(NOT_DEAD, HttpStatus.BAD_REQUEST);
    const queued = await this.repository.resend(deliveryId);
    this.worker.nudge();
    return deliveryView(queued);
  }
}
