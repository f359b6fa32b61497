import { Injectable } from '@nestjs/common';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { OutgoingAddressRefusedError } from '@dc/platform';
import { EndpointGuard } from '../network/endpoint-guard';

/** Why the catalogue at the URL could not be fetched, in words for the url field. */
export class CatalogueFetchError extends Error {}

export interface FetchedCatalogue {
  text: string;
  contentType: string;
  /** Where it came from after redirects (the base of its relative IRIs). */
  url: string;
}

const MAX_REDIRECTS = 3;

/**
 * Fetches a DCAT catalogue for an import: http(s) only, every connection through the address guard
 * (public addresses, and those the operator lists in ALLOWED_PRIVATE_ENDPOINTS), redirects checked
 * again, within a time limit for the whole download and a byte limit counted as it streams.
 */
@Injectable()
export class CatalogueFetch {
  constructor(private readonly guard: EndpointGuard) {}

  async fetch(address: string, limits: { maxBytes: number; timeoutMs: number }): Promise<FetchedCatalogue> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new CatalogueFetchError('Enter a valid URL.');
    }
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    for (let redirects = 0; ; redirects++) {
      const response = await this.get(url, deadline, limits.timeoutMs);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        if (redirects >= MAX_REDIRECTS) throw new CatalogueFetchError(`The URL redirects more than ${MAX_REDIRECTS} times.`);
        url = new URL(location, url);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new CatalogueFetchError(`The URL answered HTTP ${status}.`);
      }
      const text = await this.body(response, limits.maxBytes, deadline, limits.timeoutMs);
      return { text, contentType: response.headers['content-type']?.split(';')[0].trim() ?? '', url: url.toString() };
    }
  }

  private body(response: IncomingMessage, maxBytes: number, deadline: AbortSignal, timeoutMs: number): Promise<string> {
    const tooLarge = () => new CatalogueFetchError(`The catalogue at the URL is larger than ${maxBytes} bytes, the most an import reads (HARVEST_MAX_BYTES).`);
    const announced = Number(response.headers['content-length']);
    if (Number.isFinite(announced) && announced > maxBytes) {
      response.destroy();
      return Promise.reject(tooLarge());
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          reject(tooLarge());
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', () =>
        reject(
          new CatalogueFetchError(
            deadline.aborted ? `The URL did not send its catalogue within ${Math.round(timeoutMs / 1000)} s.` : 'The download from the URL was interrupted.',
          ),
        ),
      );
    });
  }

  private async get(url: URL, signal: AbortSignal, timeoutMs: number): Promise<IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CatalogueFetchError('Only http and https URLs can be imported.');
    if (url.username || url.password) throw new CatalogueFetchError('URLs with a user name or password are not fetched.');
    try {
      // Checked before connecting, for a clear message; the agent's lookup checks the address it connects to.
      await this.guard.resolve(url.hostname);
    } catch (error) {
      if (error instanceof OutgoingAddressRefusedError)
        throw new CatalogueFetchError(
          error.why === 'unknown host'
            ? `The host "${url.hostname}" of the URL is unknown.`
            : 'The URL points to a local or private network address, which the catalogue does not fetch from unless the operator allows it (ALLOWED_PRIVATE_ENDPOINTS).',
        );
      throw error;
    }
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.get(
        url,
        {
          signal,
          lookup: this.guard.lookup(),
          headers: { 'user-agent': 'data-catalogue (DCAT import)', accept: 'text/turtle, application/ld+json;q=0.9, application/json;q=0.5, */*;q=0.1' },
        },
        resolve,
      );
      request.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          new CatalogueFetchError(
            signal.aborted
              ? `The URL did not answer within ${Math.round(timeoutMs / 1000)} s.`
              : `The URL could not be reached (${error.code ?? 'connection failed'}).`,
          ),
        ),
      );
    });
  }
}
