// Fuzzy hashed columns: the cryptographic long-term key (CLK) of Schnell et al., as in
// anonlink/clkhash. A value's character bigrams are hashed into one Bloom filter with a keyed double
// hashing scheme, so "Jon Smith" and "John Smith" give filters with a high Dice coefficient, and
// nobody without the key can test a guess against a filter. The browser encodes the same
// (apps/web/src/sources/clk.ts); apps/relations compares the filters.
import { createHmac } from 'node:crypto';

export interface ClkOptions {
  /** Filter size in bits (a multiple of 32). */
  bits: number;
  /** Bit positions set per bigram. */
  hashes: number;
}

export const DEFAULT_CLK: ClkOptions = { bits: 1024, hashes: 20 };

/** A column's cell as stored: the filter's 128 bytes in base64 (172 characters). */
export const CLK_PATTERN = /^[A-Za-z0-9+/]{171}=$/;

/** The bigrams of a value: lower case, spaces collapsed, padded with a space at both ends. */
export function bigramsOf(value: string): string[] {
  const text = ` ${value.toLowerCase().replace(/\s+/g, ' ').trim()} `;
  const grams: string[] = [];
  for (let i = 0; i + 1 < text.length; i++) grams.push(text.slice(i, i + 2));
  return grams;
}

/**
 * The Bloom filter of a value under a bigram key: for each bigram, HMAC-SHA256 gives h1 and h2 (its
 * first two big-endian uint32s, h2 odd) and bits h1 + i * h2 mod bits are set. Bit p is bit p % 8 of
 * byte p / 8 (so a little-endian Uint32Array over the bytes holds bit p in word p / 32).
 */
export function clkFilter(bigramKey: Uint8Array | string, value: string, options: ClkOptions = DEFAULT_CLK): Uint8Array {
  const filter = new Uint8Array(options.bits / 8);
  for (const gram of bigramsOf(value)) {
    const digest = createHmac('sha256', bigramKey).update(gram, 'utf8').digest();
    const h1 = digest.readUInt32BE(0);
    const h2 = digest.readUInt32BE(4) | 1;
    for (let i = 0; i < options.hashes; i++) {
      const position = ((h1 + Math.imul(i, h2)) >>> 0) % options.bits;
      filter[position >>> 3] |= 1 << (position & 7);
    }
  }
  return filter;
}

/**
 * The bigram key of a linkage key: HMAC-SHA256(linkage key, a fixed label). Bigrams are hashed under
 * a key of their own so that a column's exact keyed hash of a two-letter value tells nothing about
 * the filters.
 */
export function clkKeyOf(linkageKey: Uint8Array): Buffer {
  return createHmac('sha256', linkageKey).update('data-catalogue clk key').digest();
}

/** (text) => the value's CLK in base64, keyed by the linkage key. */
export function clkEncoder(linkageKey: Uint8Array): (text: string) => string {
  const key = clkKeyOf(linkageKey);
  return (text) => Buffer.from(clkFilter(key, text)).toString('base64');
}
