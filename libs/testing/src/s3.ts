import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// s3rver ships no types; this is the part of its (Koa) API used here.
interface KoaContext {
  req: IncomingMessage;
  status: number;
  body: unknown;
  set(field: string, value: string): void;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;
interface S3rverInstance {
  middleware: KoaMiddleware[];
  httpServer?: Server;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as S3rverConstructor;

/** s3rver's built-in account; it knows no other. */
export const S3RVER_ACCESS_KEY_ID = 'S3RVER';
export const S3RVER_SECRET_ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The directory s3rver keeps buckets in (removed by stop()). */
  directory: string;
  stop(): Promise<void>;
}

/**
 * Starts s3rver in-process on a free loopback port with a fresh temporary directory.
 *
 * s3rver itself only checks that the access key id exists: it does not verify AWS Signature V4
 * and lets anonymous requests through. A real S3 or MinIO does both, so a small middleware in
 * front of s3rver verifies every request's SigV4 signature (header or presigned query) against
 * the known secret, and rejects unsigned requests, tampered or expired presigned URLs and wrong
 * secrets the way MinIO does (403 with an S3 error document).
 */
export async function startS3rver(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'dc-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, resetOnClose: false });
  server.middleware.unshift(sigV4Verifier(new Map([[S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY]])));
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKeyId: S3RVER_ACCESS_KEY_ID,
    secretAccessKey: S3RVER_SECRET_ACCESS_KEY,
    directory,
    /** Idempotent. */
    stop() {
      stopping ??= (async () => {
        server.httpServer?.closeAllConnections();
        await server.close();
        await rm(directory, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

class SigV4Failure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Koa middleware verifying AWS Signature Version 4 (header and query forms) as S3 does. */
function sigV4Verifier(secrets: Map<string, string>): KoaMiddleware {
  return async (ctx, next) => {
    try {
      verifySigV4(ctx.req, secrets);
    } catch (error) {
      if (!(error instanceof SigV4Failure)) throw error;
      ctx.status = 403;
      ctx.set('Content-Type', 'application/xml');
      ctx.set('x-amz-error-code', error.code);
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`;
      return;
    }
    return next();
  };
}

function verifySigV4(req: IncomingMessage, secrets: Map<string, string>): void {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart >= 0 ? url.slice(0, queryStart) : url;
  const query = parseQuery(queryStart >= 0 ? url.slice(queryStart + 1) : '');
  const param = (name: string) => query.find(([key]) => key === name)?.[1];
  const authorization = req.headers.authorization;

  let credential: string, signedHeaders: string, signature: string, amzDate: string, payloadHash: string;
  let signedQuery = query;
  if (authorization) {
    const match = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(authorization);
    if (!match) throw new SigV4Failure('AccessDenied', 'Only AWS Signature Version 4 is accepted');
    [, credential, signedHeaders, signature] = match;
    amzDate = header(req, 'x-amz-date');
    payloadHash = header(req, 'x-amz-content-sha256');
  } else if (param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') throw new SigV4Failure('AuthorizationQueryParametersError', 'Unsupported algorithm');
    credential = param('X-Amz-Credential') ?? '';
    signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    signature = param('X-Amz-Signature') ?? '';
    amzDate = param('X-Amz-Date') ?? '';
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(param('X-Amz-Expires'));
    const signedAt = parseAmzDate(amzDate);
    if (!Number.isFinite(expires) || Number.isNaN(signedAt)) throw new SigV4Failure('AuthorizationQueryParametersError', 'Bad X-Amz-Date or X-Amz-Expires');
    if (Date.now() > signedAt + expires * 1000) throw new SigV4Failure('AccessDenied', 'Request has expired');
    signedQuery = query.filter(([key]) => key !== 'X-Amz-Signature');
  } else {
    throw new SigV4Failure('AccessDenied', 'Anonymous access is forbidden');
  }

  const [accessKeyId, date, region, service, terminator] = credential.split('/');
  const secret = secrets.get(accessKeyId);
  if (!secret) throw new SigV4Failure('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (!date || !region || !service || terminator !== 'aws4_request' || !amzDate.startsWith(date)) {
    throw new SigV4Failure('AuthorizationHeaderMalformed', 'Malformed credential scope');
  }

  const canonicalQuery = signedQuery
    .map(([key, value]) => [encodeRfc3986(key), encodeRfc3986(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${header(req, name).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  // S3 signs the path exactly as sent (already URI-encoded once), unlike other AWS services.
  const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  let key: Buffer = Buffer.from(`AWS4${secret}`);
  for (const part of [date, region, service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  const expected = Buffer.from(createHmac('sha256', key).update(stringToSign).digest('hex'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new SigV4Failure('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function parseQuery(raw: string): Array<[string, string]> {
  if (!raw) return [];
  return raw.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const key = equals >= 0 ? pair.slice(0, equals) : pair;
    const value = equals >= 0 ? pair.slice(equals + 1) : '';
    try {
      return [decodeURIComponent(key), decodeURIComponent(value)];
    } catch {
      throw new SigV4Failure('AuthorizationQueryParametersError', 'Malformed query string');
    }
  });
}

function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function parseAmzDate(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** The product's settings (STORAGE_DRIVER=s3 and S3_*) that point it at this test server. */
export function s3StorageEnv(s3: TestS3Server): Record<string, string> {
  return { STORAGE_DRIVER: 's3', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey };
}
