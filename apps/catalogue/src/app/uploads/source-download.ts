import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '@dc/platform';
import { ObjectStorage, ObjectTooLargeError } from '@dc/storage';
import { cleanFileName, contentTypeOf, type ReceiveOptions, type StoredUpload, tooLarge } from './busboy-multipart';

export interface SourceDownloadSettings {
  /**
   * Loopback, private and link-local addresses are refused, so that nobody can make the server
   * fetch from its own network (server-side request forgery). Tests and labs may allow them.
   */
  allowPrivateAddresses: boolean;
  /** The whole download, from connecting to the last byte (the client waits 180 s for the upload). */
  timeoutMs: number;
  maxRedirects: number;
}

export const SOURCE_DOWNLOAD_SETTINGS = Symbol('SOURCE_DOWNLOAD_SETTINGS');

export const DEFAULT_SOURCE_DOWNLOAD_SETTINGS: SourceDownloadSettings = { allowPrivateAddresses: false, timeoutMs: 60_000, maxRedirects: 3 };

/** Why the source URL could not be fetched, in words for the source field. */
export class SourceDownloadError extends Error {}

/** The file's name from the URL's last path segment, else its host. */
function fileNameOf(url: URL): string {
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // A malformed escape: the raw segment will do.
  }
  return cleanFileName(name) || url.hostname;
}

/**
 * extractFromURL: fetches a record's source URL into the object store like an uploaded file
 * (streamed, within the upload size limit), following a few redirects, each checked again.
 */
@Injectable()
export class SourceDownloader {
  private readonly settings: SourceDownloadSettings;

  constructor(
    private readonly storage: ObjectStorage,
    @Optional() @Inject(SOURCE_DOWNLOAD_SETTINGS) settings?: Partial<SourceDownloadSettings>,
  ) {
    this.settings = { ...DEFAULT_SOURCE_DOWNLOAD_SETTINGS, ...settings };
  }

  /** Throws SourceDownloadError, or the 413 of an upload that is too large. */
  async download(source: string, options: ReceiveOptions): Promise<StoredUpload> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    let url = new URL(source);
    for (let redirects = 0; ; redirects++) {
      const response = await this.get(url, deadline);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        if (redirects >= this.settings.maxRedirects) throw new SourceDownloadError(`The source URL redirects more than ${this.settings.maxRedirects} times.`);
        url = new URL(location, url);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new SourceDownloadError(`The source URL answered HTTP ${status}.`);
      }
      const announced = Number(response.headers['content-length']);
      if (Number.isFinite(announced) && announced > options.maxBytes) {
        response.destroy();
        throw tooLarge(options.maxBytes);
      }
      const fileName = fileNameOf(url);
      const contentType = contentTypeOf(fileName, response.headers['content-type']?.split(';')[0]);
      const fileId = randomUUID();
      const key = options.keyFor(fileId);
      if (options.beforePut) {
        await options.beforePut(key).catch((error: unknown) => {
          response.destroy();
          throw error;
        });
      }
      try {
        const stored = await this.storage.put(key, response, { contentType, maxBytes: options.maxBytes });
        return { fileId, key, fileName, contentType, size: stored.size, checksum: stored.checksum };
      } catch (error) {
        if (error instanceof ObjectTooLargeError) throw tooLarge(options.maxBytes);
        throw new SourceDownloadError(
          deadline.aborted
            ? `The source URL did not send its file within ${Math.round(this.settings.timeoutMs / 1000)} s.`
            : 'The download from the source URL was interrupted.',
        );
      }
    }
  }

  /** Resolves the host, refuses addresses that are not public (unless allowed), and connects to the checked address only. */
  private async get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceDownloadError('Only http and https source URLs can be fetched.');
    if (url.username || url.password) throw new SourceDownloadError('Source URLs with a user name or password are not fetched.');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
    } catch {
      throw new SourceDownloadError(`The host "${host}" of the source URL is unknown.`);
    }
    if (!this.settings.allowPrivateAddresses && (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address)))) {
      throw new SourceDownloadError('The source URL points to a local or private network address; it is not fetched.');
    }
    const target = addresses[0];
    // Connect to the address just checked, not to whatever a second DNS answer would say.
    const pinned = ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      lookupOptions.all ? callback(null, [target]) : callback(null, target.address, target.family)) as unknown as LookupFunction;
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.get(url, { signal, lookup: pinned, headers: { 'user-agent': 'data-catalogue (extractFromURL)', accept: '*/*' } }, resolve);
      request.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          new SourceDownloadError(
            signal.aborted
              ? `The source URL did not answer within ${Math.round(this.settings.timeoutMs / 1000)} s.`
              : `The source URL could not be reached (${error.code ?? 'connection failed'}).`,
          ),
        ),
      );
    });
  }
}
