import type { AppConfig } from '@dc/platform';
import type { WebhookSettings } from './webhook';

export const WEBHOOK_SETTINGS = Symbol('WEBHOOK_SETTINGS');

/** The delivery settings from configuration (WEBHOOK_*, docs/webhooks.md). */
export const webhookSettingsFrom = (config: AppConfig): WebhookSettings => ({
  attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
  retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
  retryMaxMs: config.WEBHOOK_RETRY_MAX_MS,
  maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  concurrency: config.WEBHOOK_CONCURRENCY,
  pollMs: config.WEBHOOK_POLL_MS,
});
