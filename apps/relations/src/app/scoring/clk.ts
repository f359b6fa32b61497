// Privacy-preserving fuzzy linkage: the cryptographic long-term key (CLK) of Schnell et al., as in
// anonlink/clkhash. A text's character bigrams are hashed into one Bloom filter with a keyed double
// hashing scheme, so two parties holding the key encode "Jon Smith" and "John Smith" into filters
// whose Dice coefficient is high, and nobody without the key can test a guess against a filter.
// The encoding itself lives in libs/extraction (the server hashes fuzzy columns with it; the browser
// encodes the same): here filters are compared.
import { bigramsOf, type ClkOptions, clkFilter, DEFAULT_CLK } from '@dc/extraction';

export { bigramsOf, type ClkOptions, DEFAULT_CLK };

/** The keyed Bloom filter of a value, as 32-bit words (bit p in word p / 32). */
export function clkOf(value: string, key: Uint8Array | string, options: ClkOptions = DEFAULT_CLK): Uint32Array {
  const bytes = clkFilter(key, value, options);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** Bits set in a 32-bit word. */
export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Dice coefficient of two filters: 2 |A ∩ B| / (|A| + |B|). */
export function dice(a: Uint32Array, b: Uint32Array): number {
  let both = 0;
  let ones = 0;
  for (let i = 0; i < a.length; i++) {
    both += popcount(a[i] & b[i]);
    ones += popcount(a[i]) + popcount(b[i]);
  }
  return ones === 0 ? 0 : (2 * both) / ones;
}

export interface ClkMatch {
  rowA: number;
  rowB: number;
  similarity: number;
}

/**
 * One-to-one linkage of two lists of filters: every pair at or above the threshold, taken greedily
 * best first so each row links at most once (anonlink's greedy solver).
 */
export function linkClks(left: Uint32Array[], right: Uint32Array[], threshold: number): ClkMatch[] {
  const pairs: ClkMatch[] = [];
  left.forEach((a, rowA) =>
    right.forEach((b, rowB) => {
      const similarity = dice(a, b);
      if (similarity >= threshold) pairs.push({ rowA, rowB, similarity });
    }),
  );
  pairs.sort((p, q) => q.similarity - p.similarity || p.rowA - q.rowA || p.rowB - q.rowB);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  return pairs.filter((p) => {
    if (usedA.has(p.rowA) || usedB.has(p.rowB)) return false;
    usedA.add(p.rowA);
    usedB.add(p.rowB);
    return true;
  });
}
