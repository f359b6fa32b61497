import { Readable } from 'node:stream';

/** What stat() reports for objects stored without a content type (S3 and MinIO do the same). */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface PutObjectOptions {
  /** Defaults to DEFAULT_CONTENT_TYPE. */
  contentType?: string;
  /** Announced size (for example Content-Length); a body of another size is rejected. */
  size?: number;
  /** Hard limit: the upload is aborted as soon as the body goes past it. */
  maxBytes?: number;
}

export interface PutObjectResult {
  key: string;
  size: number;
  /** sha256 of the body, lowercase hex. */
  checksum: string;
}

export interface ObjectStat {
  size: number;
  contentType?: string;
}

export interface SignedDownloadUrlOptions {
  expiresInSeconds: number;
  /** Offered to the browser as the download's file name (Content-Disposition: attachment). */
  fileName?: string;
}

/**
 * Port for file bodies (uploads, extracted artefacts). Keys are '/'-separated relative paths, see
 * assertValidObjectKey. Used as its own Nest injection token.
 */
export abstract class ObjectStorage {
  /**
   * Streams the body into the object, computing size and sha256 on the way. The object appears
   * under the key only once complete; on any failure (too large, size mismatch, source error)
   * nothing is left behind and the body stream is destroyed.
   */
  abstract put(key: string, body: Readable, options?: PutObjectOptions): Promise<PutObjectResult>;
  /** Throws ObjectNotFoundError when the key does not exist. */
  abstract get(key: string): Promise<Readable>;
  abstract stat(key: string): Promise<ObjectStat | null>;
  /** Idempotent: deleting a missing key succeeds. */
  abstract delete(key: string): Promise<void>;
  abstract exists(key: string): Promise<boolean>;
  /** Every key starting with the prefix (a plain string prefix, not a folder), in no fixed order. */
  abstract list(prefix: string): AsyncIterable<string>;
  /** A URL that lets a browser download the object, without other credentials, until it expires. */
  abstract signedDownloadUrl(key: string, options: SignedDownloadUrlOptions): Promise<string>;
  /** Readiness: resolves when objects can be stored now (bucket reachable, directory writable), rejects with the reason otherwise. */
  abstract check(): Promise<void>;
}

/** S3 allows presigned URLs of at most seven days; both adapters keep to that. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 60 * 60;

export function assertValidExpiry(expiresInSeconds: number): void {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_SIGNED_URL_SECONDS) {
    throw new RangeError(`expiresInSeconds must be an integer between 1 and ${MAX_SIGNED_URL_SECONDS}`);
  }
}

/** Collects list() into an array (handy in tests and for small prefixes). */
export async function listAll(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list(prefix)) keys.push(key);
  return keys;
}
