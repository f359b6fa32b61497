import { hmacSha256Hex, sha256Hex } from './hmac-sha256';

// The linkage key (docs/private-linkage.md): 32 random bytes an organisation holds and shares with
// the partners it links data with. The browser hashes private columns with it (HMAC-SHA-256, 32 hex
// characters, as libs/extraction's keyedHash), and only its id reaches the server. It is kept in
// this browser's storage if the user asks, never on the server.

const STORAGE_KEY = 'dc.linkageKey';

export const LINKAGE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The key's bytes, or null when the text is not a linkage key. */
export function parseLinkageKey(text: string): Uint8Array | null {
  const trimmed = text.trim();
  if (!LINKAGE_KEY_PATTERN.test(trimmed)) return null;
  const binary = atob(trimmed.replace(/-/g, '+').replace(/_/g, '/') + '=');
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return bytes.length === 32 ? bytes : null;
}

/** A new key: 32 bytes from the browser's cryptographic generator. */
export function generateLinkageKey(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The key's public id, as the server names it in META.LINKAGE_KEY_ID (libs/extraction linkageKeyId). */
export function linkageKeyId(key: Uint8Array): string {
  const label = new TextEncoder().encode('data-catalogue linkage key id\n');
  const message = new Uint8Array(label.length + key.length);
  message.set(label);
  message.set(key, label.length);
  return sha256Hex(message).slice(0, 16);
}

/**
 * A hasher keyed once: HMAC-SHA-256 of a value's UTF-8 text, 32 hex characters. The key's inner and
 * outer states are computed once, so a short value costs two SHA-256 blocks and no allocation.
 */
export function keyedHasher(key: Uint8Array): (text: string) => string {
  return hmacSha256Hex(key, 32);
}

export function storedLinkageKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Remembers the key in this browser (null forgets it). */
export function storeLinkageKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Private browsing without storage: the key lives in the page only.
  }
}
