import { Inject, Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { APP_CONFIG, type AppConfig, OutgoingAddressGuard } from '@dc/platform';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The identity service's calls to identity providers go through the product's outgoing address guard
 * (libs/platform): only public addresses, except what the operator lists in ALLOWED_PRIVATE_ENDPOINTS
 * (an on-premise Keycloak). `fetch` is a Fetch API function for openid-client's customFetch that
 * connects only to the checked address, with a time limit and a body cap.
 */
@Injectable()
export class ProviderAddressGuard extends OutgoingAddressGuard {
  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'ALLOWED_PRIVATE_ENDPOINTS'>) {
    super(config.ALLOWED_PRIVATE_ENDPOINTS);
  }

  /** A Fetch API function whose connections go only to checked addresses. */
  readonly fetch = async (
    input: string | URL,
    init: { method?: string; headers?: unknown; body?: unknown; signal?: AbortSignal | null } = {},
  ): Promise<Response> => {
    const url = new URL(String(input));
    const target = await this.resolve(url.hostname);
    const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options?.all ? callback(null, [target]) : callback(null, target.address, target.family)) as unknown as LookupFunction;
    const headers = Object.fromEntries(new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).entries());
    const body = init.body === undefined || init.body === null ? undefined : init.body instanceof URLSearchParams ? init.body.toString() : init.body;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('Unsupported request body');
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);
    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, { method: init.method ?? 'GET', headers, lookup: pinned, signal }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) request.destroy(new Error('The answer is too large'));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) value.forEach((v) => answer.append(name, v));
            else if (value !== undefined) answer.set(name, value);
          }
          const status = response.statusCode ?? 502;
          const bytes = Buffer.concat(chunks);
          resolve(new Response(status === 204 || status === 304 ? null : bytes, { status, statusText: response.statusMessage, headers: answer }));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  };
}
