import { InvalidObjectKeyError } from './errors';

/** S3's own limit; the filesystem adapter keeps to it so keys stay portable between adapters. */
export const MAX_OBJECT_KEY_BYTES = 1024;

/**
 * Names starting with this are reserved for the filesystem adapter's temporary and metadata files,
 * so no key may have a segment that starts with it.
 */
export const RESERVED_SEGMENT_PREFIX = '.~';

/** Throws InvalidObjectKeyError unless the key is a relative, normalised, '/'-separated path. */
export function assertValidObjectKey(key: string): void {
  checkPath(key, false);
}

/** A list prefix follows the key rules but may be empty and may end with '/'. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  checkPath(prefix, true);
}

function checkPath(key: string, isPrefix: boolean): void {
  const fail = (reason: string): never => {
    throw new InvalidObjectKeyError(key, reason);
  };
  if (typeof key !== 'string' || key.length === 0) fail('must not be empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_OBJECT_KEY_BYTES) fail(`must be at most ${MAX_OBJECT_KEY_BYTES} bytes`);
  if (key.includes('\0')) fail('must not contain NUL');
  // Control characters make keys unprintable in logs and headers.
  if (/[\u0001-\u001f\u007f]/.test(key)) fail('must not contain control characters');
  if (key.includes('\\')) fail('must not contain backslashes');
  if (key.startsWith('/')) fail('must not be absolute');
  if (/^[a-zA-Z]:/.test(key)) fail('must not start with a drive letter');
  const segments = key.split('/');
  if (isPrefix && segments[segments.length - 1] === '') segments.pop();
  for (const segment of segments) {
    if (segment === '') fail('must not contain empty segments');
    if (segment === '.' || segment === '..') fail('must not contain "." or ".." segments');
    if (segment.startsWith(RESERVED_SEGMENT_PREFIX)) fail(`segments must not start with "${RESERVED_SEGMENT_PREFIX}"`);
  }
}
