import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { BackgroundLoop, LOGGER, SecretCipher } from '@dc/platform';
import { type ClaimedDelivery, retryDelayMs, type WebhookSettings } from './webhook';
import { webhookHeaders } from './webhook-signer';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_SETTINGS } from './webhook-settings';
import { WebhooksRepository } from './webhooks.repository';

/** How much longer than an attempt's time limit a claim lasts: a claim outliving it means its process died. */
const CLAIM_MARGIN_MS = 5_000;
/** Delivered and dead deliveries stay in the log this long. */
export const LOG_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Sends due deliveries in the background, apart from request handling: at most
 * WEBHOOK_CONCURRENCY attempts at a time, each on its own (a claim that runs out, its process killed mid-attempt, makes the
 * delivery due again: at least once), signs and POSTs each with its time limit, and writes down the
 * outcome: delivered on a 2xx, else due again after the back-off, or dead after the last attempt.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: BackgroundLoop;
  private readonly logger: Logger;
  /** Attempts under way in this process (at most WEBHOOK_CONCURRENCY). */
  private readonly running = new Set<Promise<void>>();
  private prunedAt = 0;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly cipher: SecretCipher,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'webhook-deliveries' });
    this.loop = new BackgroundLoop(
      (signal) => this.step(signal),
      (error) => this.logger.error({ err: error }, 'webhook deliveries failed; trying again at the next poll'),
      settings.pollMs,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    // Stopping aborted the attempts under way; their claims run out and another process sends them.
    await Promise.allSettled([...this.running]);
  }

  /** A delivery was queued in a transaction about to commit. */
  nudgeAfterCommit(): void {
    this.loop.nudgeAfterCommit();
  }

  /** A delivery was queued and committed. */
  nudge(): void {
    this.loop.nudge();
  }

  private async step(signal: AbortSignal): Promise<boolean> {
    await this.pruneNowAndThen();
    const free = this.settings.concurrency - this.running.size;
    if (free <= 0) return false;
    const claimed = await this.repository.claimDue(free, this.settings.attemptTimeoutMs + CLAIM_MARGIN_MS);
    for (const delivery of claimed) {
      // Each attempt runs on its own: a slow endpoint holds one slot, not the others.
      const attempt: Promise<void> = this.attempt(delivery, signal)
        .catch((error: unknown) =>
          this.logger.error({ err: error, deliveryId: delivery.id }, 'a webhook attempt failed; its claim runs out and it is sent again'),
        )
        .finally(() => {
          this.running.delete(attempt);
          this.loop.nudge();
        });
      this.running.add(attempt);
    }
    return claimed.length > 0;
  }

  /** Deletes deliveries finished more than LOG_RETENTION_DAYS ago, at most once an hour. */
  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    const removed = await this.repository.pruneFinished(LOG_RETENTION_DAYS);
    if (removed > 0) this.logger.info({ removed }, 'old webhook deliveries removed from the log');
  }

  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const log = this.logger.child({ deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: delivery.attempts });
    let secret: string;
    try {
      secret = this.cipher.decrypt(delivery.secretSealed, delivery.endpointId);
    } catch {
      return this.fail(delivery, null, 'The endpoint secret cannot be read (was ENCRYPTION_KEY changed?).', log);
    }
    const headers = webhookHeaders(secret, delivery.eventId, Math.floor(Date.now() / 1000), delivery.body);
    const refusal = await this.sender.refusal(delivery.url);
    if (refusal) return this.fail(delivery, null, refusal, log);
    const outcome = await this.sender.send(delivery.url, headers, delivery.body, this.settings.attemptTimeoutMs, signal);
    // Stopping: leave the claim to run out, the next process sends it again.
    if (signal.aborted) return;
    if ('statusCode' in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300) {
      await this.repository.delivered(delivery.id, outcome.statusCode);
      log.info({ statusCode: outcome.statusCode }, 'webhook delivered');
      return;
    }
    if ('statusCode' in outcome) return this.fail(delivery, outcome.statusCode, `The endpoint answered ${outcome.statusCode}.`, log);
    return this.fail(delivery, null, outcome.error, log);
  }

  private async fail(delivery: ClaimedDelivery, statusCode: number | null, error: string, log: Logger): Promise<void> {
    const dead = delivery.attempts >= this.settings.maxAttempts;
    const retryInMs = dead ? null : retryDelayMs(delivery.attempts, this.settings);
    await this.repository.failed(delivery.id, statusCode, error, retryInMs);
    if (dead) log.warn({ statusCode, error }, 'webhook delivery dead-lettered after its last attempt');
    else log.info({ statusCode, error, retryInMs }, 'webhook delivery failed; will try again');
  }
}
