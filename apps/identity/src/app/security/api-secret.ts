import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API secrets are shown once and only a digest is kept: `s1.<base64url(SHA-256(owner id, secret))>`.
 * A secret is 256 random bits, so a fast hash cannot be reversed or guessed; the owner's id is
 * bound in, so a digest copied to another account's row matches nothing.
 */
const DIGEST = 's1';

export function apiSecretDigest(ownerId: string, secret: string): string {
  return `${DIGEST}.${createHash('sha256').update(`${ownerId}\n${secret}`, 'utf8').digest('base64url')}`;
}

export function isApiSecretDigest(stored: string): boolean {
  return stored.startsWith(`${DIGEST}.`);
}

/** Constant-time: the digests have the same length whatever the secret sent. */
export function matchesApiSecretDigest(stored: string, ownerId: string, secret: string): boolean {
  const expected = Buffer.from(stored);
  const actual = Buffer.from(apiSecretDigest(ownerId, secret));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
