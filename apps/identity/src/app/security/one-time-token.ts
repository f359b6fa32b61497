import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Emailed tokens (activation, password reset): only their hash is stored. */
export interface OneTimeToken {
  token: string;
  hash: string;
}

export function newOneTimeToken(): OneTimeToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** 256 random bits need no slow hash: SHA-256 cannot be reversed or guessed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares secrets in constant time (lengths are hidden by hashing first). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
