import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type EventEnvelope, JobRequested, JobStarted, RequestCreated, RequestUpdated } from '@dc/contracts';
import { EventBus, subscribeIdempotent } from '@dc/messaging';
import { ServiceDatabase } from '@dc/platform';
import { organisationsOf, partiesKeyOf, requestParties, WEBHOOK_CONSUMED_TYPES, webhookBody } from './webhook';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhooksRepository } from './webhooks.repository';

/** The consumer group that turns events into webhook deliveries (its own, so the registry never waits on it). */
export const WEBHOOKS_GROUP = 'jobs.webhooks';

/**
 * Writes the delivery outbox: for each event an endpoint may hear of, one delivery per active
 * endpoint of the organisations it is about that chose its type, in the same transaction as the
 * event's processed mark (a redelivered event adds nothing). Notes the parties of requests and jobs
 * on the way, as request.message-posted and job.completed do not name them.
 */
@Injectable()
export class WebhookEventsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly bus: EventBus,
    private readonly db: ServiceDatabase,
    private readonly repository: WebhooksRepository,
    private readonly worker: WebhookDeliveryWorker,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await subscribeIdempotent(this.bus, this.db.dataSource, this.db.schema, WEBHOOKS_GROUP, WEBHOOK_CONSUMED_TYPES, (event, manager) =>
      this.apply(event, manager),
    );
  }

  async apply(event: EventEnvelope, manager: EntityManager): Promise<void> {
    if (event.type === JobRequested.type || event.type === JobStarted.type) {
      const job = (event.type === JobStarted.type ? JobStarted : JobRequested).payload.parse(event.payload);
      return this.repository.noteParties(manager, job.jobId, [job.owner.organisationId]);
    }
    if (event.type === RequestCreated.type || event.type === RequestUpdated.type) {
      const request = RequestCreated.payload.parse(event.payload);
      await this.repository.noteParties(manager, request.requestId, requestParties(request));
    }
    const key = partiesKeyOf(event);
    const organisations = organisationsOf(event, key === undefined ? undefined : await this.repository.parties(manager, key));
    const endpoints = await this.repository.subscribedEndpoints(manager, organisations, event.type);
    if (endpoints.length === 0) return;
    const queued = await this.repository.enqueue(manager, endpoints, event, webhookBody(event));
    if (queued.length > 0) this.worker.nudgeAfterCommit();
  }
}
