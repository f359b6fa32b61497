import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, SecretCipher, ServiceRuntimeModule } from '@dc/platform';
import { JobsRegistry1764400000000 } from './migrations/1764400000000-jobs-registry';
import { RequestGrantsConsumer } from './grants/request-grants.consumer';
import { RequestGrantsRepository } from './grants/request-grants.repository';
import { DerivedStorage1764500000000 } from './migrations/1764500000000-derived-storage';
import { LinkGrants1764520000000 } from './migrations/1764520000000-link-grants';
import { HarvestJobs1764800000000 } from './migrations/1764800000000-harvest-jobs';
import { JobsConsumer } from './registry/jobs.consumer';
import { JobsController } from './registry/jobs.controller';
import { JobsRepository } from './registry/jobs.repository';
import { JobsService } from './registry/jobs.service';
import { DerivedStorageRepository } from './worker/derived-storage.repository';
import { DuckdbMergeEngine } from './worker/duckdb-merge-engine';
import { JobRunsRepository } from './worker/job-runs.repository';
import { MergeEngine } from './worker/merge-engine';
import { MERGE_ENGINE_SETTINGS } from './worker/merge-engine-settings';
import { MergeWorker } from './worker/merge.worker';
import { Webhooks1764600000000 } from './migrations/1764600000000-webhooks';
import { HttpWebhookSender } from './webhooks/http-webhook-sender';
import { WebhookDeliveryWorker } from './webhooks/webhook-delivery.worker';
import { WebhookEventsConsumer } from './webhooks/webhook-events.consumer';
import { WebhookSender } from './webhooks/webhook-sender';
import { WEBHOOK_SETTINGS, webhookSettingsFrom } from './webhooks/webhook-settings';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksRepository } from './webhooks/webhooks.repository';
import { WebhooksService } from './webhooks/webhooks.service';

/**
 * The jobs service: the job registry the Jobs page reads (kept from job.* events) under
 * /api/tasks, with its own copy of access requests (request.* events) for LINK results made under
 * a grant, and the merge job workers (one consumer group, any number of processes); and signed
 * webhooks under /api/webhooks, with their delivery outbox and its background sender.
 */
@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'jobs',
      migrations: [JobsRegistry1764400000000, DerivedStorage1764500000000, LinkGrants1764520000000, Webhooks1764600000000, HarvestJobs1764800000000],
    }),
  ],
  controllers: [JobsController, WebhooksController],
  providers: [
    JobsRepository,
    JobsConsumer,
    JobsService,
    RequestGrantsRepository,
    RequestGrantsConsumer,
    JobRunsRepository,
    DerivedStorageRepository,
    { provide: MergeEngine, useFactory: () => new DuckdbMergeEngine(MERGE_ENGINE_SETTINGS) },
    MergeWorker,
    // Signed webhooks (docs/webhooks.md)
    { provide: SecretCipher, inject: [APP_CONFIG], useFactory: (config: AppConfig) => SecretCipher.fromBase64Key(config.ENCRYPTION_KEY) },
    { provide: WEBHOOK_SETTINGS, inject: [APP_CONFIG], useFactory: webhookSettingsFrom },
    { provide: WebhookSender, useClass: HttpWebhookSender },
    WebhooksRepository,
    WebhooksService,
    WebhookDeliveryWorker,
    WebhookEventsConsumer,
  ],
})
export class JobsModule {}
