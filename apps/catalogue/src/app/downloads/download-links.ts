import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig, downloadLinkKey } from '@dc/platform';
import { InvalidSignedLinkError } from '@dc/storage';

/** What a download link stands for: one file of one record, for one holder, until it expires. */
export interface DownloadGrant {
  recordId: string;
  fileId: string;
  /** null: an anonymous visitor (an EV record with open access). */
  userId: string | null;
  issuedAt: Date;
  expiresAt: Date;
}

interface Payload {
  r: string;
  f: string;
  u: string | null;
  i: number;
  e: number;
}

const VERSION = 'v2';
// Not interchangeable with other tokens signed by the same key (the storage adapter's links).
const PURPOSE = 'dc-catalogue-download';
/** Where links point: the catalogue answers it (the gateway routes /api/files there). */
export const DOWNLOAD_PATH = '/api/files/download';

/**
 * Signed download links: `v2.<payload>.<hmac>` (base64url), the payload naming the record, the
 * file, the holder and the expiry. The link only says who may ask; the download checks the
 * holder's access again when it is followed (RecordsService.openDownload), and the bytes come
 * through this service whatever the storage driver, so a withdrawn access stops the link.
 */
@Injectable()
export class DownloadLinks {
  private readonly key: Buffer;
  private readonly baseUrl: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.JWT_SECRET) throw new Error('JWT_SECRET is not set: download links are signed with a key derived from it');
    this.key = downloadLinkKey(config.JWT_SECRET);
    this.baseUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  }

  url(grant: Pick<DownloadGrant, 'recordId' | 'fileId' | 'userId'>, expiresInSeconds: number, now = Date.now()): string {
    const payload: Payload = { r: grant.recordId, f: grant.fileId, u: grant.userId, i: now, e: now + expiresInSeconds * 1000 };
    const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${this.baseUrl}${DOWNLOAD_PATH}?token=${encodeURIComponent(`${VERSION}.${encoded}.${this.mac(encoded)}`)}`;
  }

  /** Throws InvalidSignedLinkError (malformed, bad signature, expired). */
  verify(token: string, now = Date.now()): DownloadGrant {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) throw new InvalidSignedLinkError('malformed');
    const [, encoded, signature] = parts;
    const expected = Buffer.from(this.mac(encoded));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidSignedLinkError('bad-signature');
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw new InvalidSignedLinkError('malformed');
    }
    if (
      typeof payload?.r !== 'string' ||
      typeof payload.f !== 'string' ||
      (payload.u !== null && typeof payload.u !== 'string') ||
      typeof payload.i !== 'number' ||
      typeof payload.e !== 'number'
    ) {
      throw new InvalidSignedLinkError('malformed');
    }
    if (now >= payload.e) throw new InvalidSignedLinkError('expired');
    return { recordId: payload.r, fileId: payload.f, userId: payload.u, issuedAt: new Date(payload.i), expiresAt: new Date(payload.e) };
  }

  private mac(encoded: string): string {
    return createHmac('sha256', this.key).update(`${PURPOSE}.${VERSION}.${encoded}`).digest('base64url');
  }
}
