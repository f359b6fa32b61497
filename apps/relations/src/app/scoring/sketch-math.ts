// Estimates from bottom-k sketches (the SKETCH_K smallest 32-bit value hashes of each column) and
// from numeric quantile summaries. Pure functions, reusable by merge jobs.
import type { ColumnSketchPayload } from '@dc/contracts';

/** The k of the catalogue's sketches: a sketch shorter than this holds every distinct value. */
export const SKETCH_K = 256;

export interface Overlap {
  jaccard: number;
  /** Estimated distinct values the two columns share. */
  shared: number;
  /** Share of a's distinct values found in b, and the other way round. */
  containmentAinB: number;
  containmentBinA: number;
  /** True when both sketches hold every value (the figures are counted, not estimated). */
  exact: boolean;
}

const NO_OVERLAP: Overlap = { jaccard: 0, shared: 0, containmentAinB: 0, containmentBinA: 0, exact: true };

/** Distinct values of a column: the sketch's size when it is complete, else the extraction's count. */
export function distinctOf(column: ColumnSketchPayload): number {
  return column.minhash.length < SKETCH_K ? column.minhash.length : Math.max(column.distinct, column.minhash.length);
}

/**
 * Jaccard similarity and containment of two columns' value sets. Exact when both sketches are
 * complete; otherwise the bottom-k estimator: among the k smallest hashes of the union, the share
 * found in both sketches estimates Jaccard, and the distinct counts turn it into containment.
 */
export function overlapOf(a: ColumnSketchPayload, b: ColumnSketchPayload): Overlap {
  if (a.minhash.length === 0 || b.minhash.length === 0) return NO_OVERLAP;
  const inB = new Set(b.minhash);
  const exact = a.minhash.length < SKETCH_K && b.minhash.length < SKETCH_K;
  if (exact) {
    const shared = a.minhash.filter((h) => inB.has(h)).length;
    const union = a.minhash.length + b.minhash.length - shared;
    return { jaccard: shared / union, shared, containmentAinB: shared / a.minhash.length, containmentBinA: shared / b.minhash.length, exact };
  }
  const inA = new Set(a.minhash);
  const union = [...new Set([...a.minhash, ...b.minhash])].sort((x, y) => x - y).slice(0, SKETCH_K);
  // Only hashes below both sketches' largest can be known to be in both.
  const limit = Math.min(a.minhash[a.minhash.length - 1], b.minhash[b.minhash.length - 1]);
  const considered = union.filter((h) => h <= limit);
  const both = considered.filter((h) => inA.has(h) && inB.has(h)).length;
  const jaccard = considered.length ? both / considered.length : 0;
  const da = distinctOf(a);
  const db = distinctOf(b);
  const shared = Math.min(da, db, (jaccard / (1 + jaccard)) * (da + db));
  return { jaccard, shared, containmentAinB: Math.min(1, shared / da), containmentBinA: Math.min(1, shared / db), exact };
}

/**
 * Normalised root-mean-square deviation of two numeric columns: the RMSD between their quantile
 * functions (101 levels) divided by the range (max - min) of the first column. null when a column
 * has no numbers, or the first is constant and the second differs from it.
 */
export function nrmsdOf(a: ColumnSketchPayload, b: ColumnSketchPayload): number | null {
  const qa = a.numeric?.quantiles ?? [];
  const qb = b.numeric?.quantiles ?? [];
  if (!a.numeric || qa.length === 0 || qa.length !== qb.length) return null;
  let sum = 0;
  for (let i = 0; i < qa.length; i++) sum += (qa[i] - qb[i]) ** 2;
  const rmsd = Math.sqrt(sum / qa.length);
  const range = a.numeric.max - a.numeric.min;
  if (range === 0) return rmsd === 0 ? 0 : null;
  return rmsd / range;
}

/** Header text as compared: lower case, words only. */
export function normaliseHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a header or a text ("Country Code" -> country, code; "countryCode" -> country, code). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 1);
}

export type WordSimilarity = (a: string, b: string) => number;

/**
 * Similarity of two headers in [0, 1]: 1 when equal once normalised, else the mean of each word's
 * best lexical similarity to the other header's words (WordNet), both ways.
 */
export function headerSimilarity(a: string, b: string, similarity: WordSimilarity): number {
  const x = normaliseHeader(a);
  const y = normaliseHeader(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  const best = (from: string[], to: string[]) => from.reduce((sum, w) => sum + Math.max(...to.map((v) => similarity(w, v))), 0) / from.length;
  // Word-level similarity never makes two different headers identical.
  return Math.min(0.95, (best(wa, wb) + best(wb, wa)) / 2);
}
