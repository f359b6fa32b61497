/** What one attempt came to: the receiver's status code, or why there was none. */
export type SendOutcome = { statusCode: number } | { error: string };

/** The port deliveries are sent through (the HTTP adapter: http-webhook-sender.ts). */
export abstract class WebhookSender {
  /** POSTs the body with the headers; resolves with the outcome, never rejects. `signal` ends the attempt early (stopping). */
  abstract send(url: string, headers: Record<string, string>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<SendOutcome>;
  /** Whether the URL's host may be reached (the address guard); a reason when not. */
  abstract refusal(url: string): Promise<string | undefined>;
}
