import { Inject, Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { APP_CONFIG, type AppConfig, OutgoingAddressGuard, OutgoingAddressRefusedError } from '@dc/platform';
import { type SendOutcome, WebhookSender } from './webhook-sender';

/** Bytes of a receiver's answer read at most (the answer itself is not kept). */
const MAX_ANSWER_BYTES = 64 * 1024;

const refusedText = (why: OutgoingAddressRefusedError['why']) =>
  why === 'unknown host'
    ? 'The host of the URL is not known.'
    : 'The URL points to a local or private network address the operator did not allow (ALLOWED_PRIVATE_ENDPOINTS).';

/**
 * Sends webhook deliveries over HTTP(S): every connection through the address guard (the checked
 * address is the one connected to), no redirects followed, one time limit for the whole attempt.
 */
@Injectable()
export class HttpWebhookSender extends WebhookSender {
  private readonly guard: OutgoingAddressGuard;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'ALLOWED_PRIVATE_ENDPOINTS'>) {
    super();
    this.guard = new OutgoingAddressGuard(config.ALLOWED_PRIVATE_ENDPOINTS);
  }

  async refusal(url: string): Promise<string | undefined> {
    try {
      await this.guard.resolve(new URL(url).hostname);
      return undefined;
    } catch (error) {
      if (error instanceof OutgoingAddressRefusedError) return refusedText(error.why);
      throw error;
    }
  }

  send(url: string, headers: Record<string, string>, body: string, timeoutMs: number, stop?: AbortSignal): Promise<SendOutcome> {
    return new Promise((resolve) => {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
      let settled = false;
      const settle = (outcome: SendOutcome) => {
        if (!settled) resolve(outcome);
        settled = true;
      };
      const request = client.request(
        target,
        {
          method: 'POST',
          signal,
          lookup: this.guard.lookup(),
          agent: false,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'data-catalogue-webhooks/1' },
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) response.destroy();
          });
          response.on('error', () => undefined);
          response.on('close', () => settle({ statusCode: response.statusCode ?? 0 }));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (stop?.aborted) return settle({ error: 'Stopped before an answer.' });
        if (timeout.aborted) return settle({ error: `No answer within ${timeoutMs / 1000} s.` });
        if (error instanceof OutgoingAddressRefusedError) return settle({ error: refusedText(error.why) });
        settle({ error: `The endpoint could not be reached (${error.code ?? error.message}).` });
      });
      request.end(body);
    });
  }
}
