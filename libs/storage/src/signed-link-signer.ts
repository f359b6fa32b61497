import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignedLinkError } from './errors';
import { assertValidObjectKey } from './object-key';
import { assertValidExpiry } from './object-storage';

export interface SignedLink {
  key: string;
  fileName?: string;
  expiresAt: Date;
}

export interface SignedLinkSignerOptions {
  /** Clock in epoch milliseconds; tests move it. */
  now?: () => number;
}

interface TokenPayload {
  k: string;
  e: number;
  f?: string;
}

const VERSION = 'v1';
// Domain separation: the same secret may sign other things elsewhere without tokens being interchangeable.
const PURPOSE = 'dc-storage-download';

/**
 * Short-lived download tokens for the filesystem adapter: `v1.<payload>.<hmac>`, both parts
 * base64url, the payload holding key, expiry and optional file name. Tokens are not encrypted, only
 * signed; they reveal the key to whoever holds them.
 */
export class SignedLinkSigner {
  private readonly secret: Buffer;
  private readonly now: () => number;

  constructor(secret: string | Buffer, options: SignedLinkSignerOptions = {}) {
    this.secret = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.secret.length < 16) throw new RangeError('SignedLinkSigner secret must be at least 16 bytes');
    this.now = options.now ?? Date.now;
  }

  sign(key: string, options: { expiresInSeconds: number; fileName?: string }): string {
    assertValidObjectKey(key);
    assertValidExpiry(options.expiresInSeconds);
    const payload: TokenPayload = { k: key, e: this.now() + options.expiresInSeconds * 1000 };
    if (options.fileName !== undefined) payload.f = options.fileName;
    const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${VERSION}.${encoded}.${this.mac(encoded)}`;
  }

  /** Returns the link's key, file name and expiry, or throws InvalidSignedLinkError. */
  verify(token: string): SignedLink {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 3 || parts[0] !== VERSION) throw new InvalidSignedLinkError('malformed');
    const [, encoded, signature] = parts;
    // Compare the canonical encodings, so alternative spellings of the same bytes do not pass.
    const expected = Buffer.from(this.mac(encoded));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidSignedLinkError('bad-signature');
    let payload: TokenPayload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as TokenPayload;
    } catch {
      throw new InvalidSignedLinkError('malformed');
    }
    if (typeof payload?.k !== 'string' || typeof payload.e !== 'number' || (payload.f !== undefined && typeof payload.f !== 'string')) {
      throw new InvalidSignedLinkError('malformed');
    }
    if (this.now() >= payload.e) throw new InvalidSignedLinkError('expired');
    return { key: payload.k, fileName: payload.f, expiresAt: new Date(payload.e) };
  }

  private mac(encodedPayload: string): string {
    return createHmac('sha256', this.secret).update(`${PURPOSE}.${VERSION}.${encodedPayload}`).digest('base64url');
  }
}

/** Verifies a download token (the `token` query parameter of a filesystem download URL). */
export function verifySignedDownloadToken(token: string, secret: string | Buffer, options: SignedLinkSignerOptions = {}): SignedLink {
  return new SignedLinkSigner(secret, options).verify(token);
}

/** The path the filesystem adapter's download URLs point at; the gateway serves it. */
export const SIGNED_DOWNLOAD_PATH = '/api/files/download';

/**
 * A Content-Disposition value offering the file under the given name: an ASCII fallback plus the
 * RFC 5987 UTF-8 form, with quotes, backslashes and control characters removed.
 */
export function attachmentContentDisposition(fileName: string): string {
  const cleaned = fileName.replace(/[\u0000-\u001f\u007f"\\/]/g, '_');
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
