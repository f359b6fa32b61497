// The relations between two records (spec: Relation scores), computed from the projection's
// sketches and word sets only. Pure: the caller decides what each record may contribute.
import type { SketchedRecord } from '../records/related-record';
import { columnsOf, isNumeric, type RecordColumn, totalRowsOf, typeCompatibility, valuesComparable } from './columns';
import { headerSimilarity, nrmsdOf, overlapOf, type WordSimilarity, wordsOf } from './sketch-math';
import type { ColumnMatches, JoinabilityRelation, MatchingHeader, SemanticRelation, SimilarWord, StatisticalRelation, StructuralRelation } from './types';

/** Words of each record compared by the semantic relation (headers' words first, then the word set). */
export const MAX_SEMANTIC_WORDS = 80;
/** NRMSD at or above this is not shown (spec section 9). */
export const NRMSD_SHOWN_BELOW = 10;
/** A column pair joins at or above this score. */
export const JOIN_THRESHOLD = 0.5;

const round = (x: number, digits = 6) => Number(x.toFixed(digits));

/** The words a record is compared by: its headers' words, then its word set (distinct, capped). */
export function semanticWordsOf(record: SketchedRecord): string[] {
  const words = new Set<string>();
  for (const header of record.record.headers) for (const word of wordsOf(header)) words.add(word);
  for (const word of record.record.words) for (const w of wordsOf(word)) words.add(w);
  return [...words].slice(0, MAX_SEMANTIC_WORDS);
}

/**
 * Semantic relation: every pair of words of the two records with their lexical similarity within
 * [min, max], best first; sem_score is the mean of each word's best match, both ways.
 */
export function semanticRelation(
  left: SketchedRecord,
  right: SketchedRecord,
  similarity: WordSimilarity,
  range: { min: number; max: number } = { min: 0, max: 1 },
): SemanticRelation {
  const a = semanticWordsOf(left);
  const b = semanticWordsOf(right);
  if (a.length === 0 || b.length === 0) return { sem_score: 0, sim_words: [] };
  const bestA = new Array<number>(a.length).fill(0);
  const bestB = new Array<number>(b.length).fill(0);
  const pairs: SimilarWord[] = [];
  a.forEach((x, i) =>
    b.forEach((y, j) => {
      const score = similarity(x, y);
      bestA[i] = Math.max(bestA[i], score);
      bestB[j] = Math.max(bestB[j], score);
      if (score > 0 && score >= range.min && score <= range.max) pairs.push({ word_left: x, word_right: y, score: round(score, 4) });
    }),
  );
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  pairs.sort((p, q) => q.score - p.score || p.word_left.localeCompare(q.word_left) || p.word_right.localeCompare(q.word_right));
  return { sem_score: round((mean(bestA) + mean(bestB)) / 2, 4), sim_words: pairs };
}

/** Structural relation: the columns of both records grouped by the data type they share. */
export function structuralRelation(left: SketchedRecord, right: SketchedRecord): StructuralRelation {
  const a = columnsOf(left);
  const b = columnsOf(right);
  const types = [...new Set(a.map((c) => c.sketch.type))].filter((type) => type !== 'empty' && b.some((c) => c.sketch.type === type)).sort();
  const struct_types = types.map((type) => ({
    type,
    headers_left: a.filter((c) => c.sketch.type === type).map((c) => c.sketch.header),
    headers_right: b.filter((c) => c.sketch.type === type).map((c) => c.sketch.header),
  }));
  const matched = struct_types.reduce((sum, t) => sum + Math.min(t.headers_left.length, t.headers_right.length), 0);
  const widest = Math.max(a.length, b.length);
  return { struct_score: widest ? round(matched / widest, 4) : 0, struct_types };
}

/** Statistical relation: NRMSD between every numeric column of one record and every one of the other (values taking part only). */
export function statisticalRelation(left: SketchedRecord, right: SketchedRecord): StatisticalRelation {
  const stats_mtx: StatisticalRelation['stats_mtx'] = [];
  const numeric = (c: RecordColumn) => c.values && isNumeric(c.sketch) && !!c.sketch.numeric;
  for (const a of columnsOf(left).filter(numeric)) {
    for (const b of columnsOf(right).filter(numeric)) {
      const nrmsd = nrmsdOf(a.sketch, b.sketch);
      if (nrmsd !== null && nrmsd < NRMSD_SHOWN_BELOW) stats_mtx.push({ header_left: a.sketch.header, header_right: b.sketch.header, nrmsd: round(nrmsd) });
    }
  }
  stats_mtx.sort((p, q) => p.nrmsd - q.nrmsd);
  return { stats_score: stats_mtx.length ? round(1 / (1 + stats_mtx[0].nrmsd), 4) : 0, stats_mtx };
}

/** Numeric columns fit a union when their means and spreads are of one scale. */
function numbersAlign(a: RecordColumn, b: RecordColumn): boolean {
  const x = a.sketch.numeric;
  const y = b.sketch.numeric;
  if (!x || !y) return false;
  const scale = Math.max(Math.abs(x.mean), Math.abs(y.mean), 1e-12);
  if (Math.abs(x.mean - y.mean) / scale > 0.5) return false;
  // A constant column (one value) has no spread to compare.
  if (x.std === 0 || y.std === 0) return true;
  const spread = x.std / y.std;
  return spread >= 1 / 3 && spread <= 3;
}

/** Score of a column pair as a join: value overlap (containment and Jaccard) weighed by how alike the headers are. */
export function joinPairScore(containment: number, jaccard: number, headers: number): number {
  return Math.sqrt(containment * jaccard) * (0.6 + 0.4 * headers);
}

/**
 * Joinability: column pairs whose headers match or whose values overlap, with containment both ways,
 * best first; joinable when a pair scores JOIN_THRESHOLD or more. Also whether the two are unionable.
 * Pairs whose values may not both take part (scoring/value-sight.ts) are listed by their headers
 * alone, with no overlap figures, and never join.
 */
export function joinabilityRelation(left: SketchedRecord, right: SketchedRecord, similarity: WordSimilarity): JoinabilityRelation {
  const a = columnsOf(left);
  const b = columnsOf(right);
  const pairs: MatchingHeader[] = [];
  for (const x of a) {
    for (const y of b) {
      if (typeCompatibility(x.sketch, y.sketch) === 0 && x.sketch.privacy === y.sketch.privacy) continue;
      const header_similarity = round(headerSimilarity(x.sketch.header, y.sketch.header, similarity), 4);
      const overlap = valuesComparable(x, y) ? overlapOf(x.sketch, y.sketch) : null;
      const containment = overlap ? Math.max(overlap.containmentAinB, overlap.containmentBinA) : 0;
      const score = overlap ? joinPairScore(containment, overlap.jaccard, header_similarity) : 0;
      if (header_similarity < 0.8 && score < JOIN_THRESHOLD / 2) continue;
      pairs.push({
        header_left: x.sketch.header,
        header_right: y.sketch.header,
        header_similarity,
        containment_left: round(overlap?.containmentAinB ?? 0, 4),
        containment_right: round(overlap?.containmentBinA ?? 0, 4),
        jaccard: round(overlap?.jaccard ?? 0, 4),
        score: round(score, 4),
        values_compared: overlap !== null,
      });
    }
  }
  pairs.sort((p, q) => q.score - p.score || q.header_similarity - p.header_similarity);
  const join_score = pairs.length ? pairs[0].score : 0;

  // Union: each column of the narrower side needs a counterpart (header, kind and values alike).
  const [narrow, wide] = a.length <= b.length ? [a, b] : [b, a];
  const aligned = narrow.filter((x) =>
    wide.some((y) => {
      if (typeCompatibility(x.sketch, y.sketch) === 0 || headerSimilarity(x.sketch.header, y.sketch.header, similarity) < 0.8) return false;
      // Without values on both sides, header and kind decide alone.
      if (!x.values || !y.values) return true;
      if (isNumeric(x.sketch) && isNumeric(y.sketch)) return numbersAlign(x, y);
      return overlapOf(x.sketch, y.sketch).jaccard > 0 || x.sketch.privacy !== 'plain';
    }),
  ).length;
  const union_score = narrow.length ? round(aligned / Math.max(a.length, b.length), 4) : 0;
  return {
    join_score,
    joinable: join_score >= JOIN_THRESHOLD,
    matching_headers: pairs,
    unionable: narrow.length > 0 && aligned === narrow.length,
    union_score,
  };
}

/** Linkability without rows: per linkable column pair, the left rows whose value is estimated to occur on the right. */
export function estimatedMatches(pairs: Array<{ left: RecordColumn; right: RecordColumn }>): ColumnMatches[] {
  return pairs.map(({ left: x, right: y }) => {
    const overlap = overlapOf(x.sketch, y.sketch);
    return {
      column_left: x.sketch.header,
      column_right: y.sketch.header,
      total_matches: Math.round(overlap.containmentAinB * x.sketch.count),
      estimated: true,
    };
  });
}

function exactPairScore(x: RecordColumn, y: RecordColumn, headers: number): number {
  const overlap = overlapOf(x.sketch, y.sketch);
  return joinPairScore(Math.max(overlap.containmentAinB, overlap.containmentBinA), overlap.jaccard, headers);
}

/** Two CLK columns under the same linkage key: JOIN_THRESHOLD, up to 1 for alike headers; 0 under different keys. */
function fuzzyPairScore(x: RecordColumn, y: RecordColumn, headers: number): number {
  const key = x.sketch.linkageKeyId;
  return key && key === y.sketch.linkageKeyId ? JOIN_THRESHOLD + (1 - JOIN_THRESHOLD) * headers : 0;
}

/**
 * The column pairs rows are linked on (only columns whose values take part): pairs that join (JOIN_THRESHOLD) on values of the same
 * privacy (hashed with hashed: equal keyed hashes), or fuzzy hashed columns (CLKs) under the same
 * linkage key, compared row by row by Dice similarity; best first, each column used once.
 */
export function linkColumnPairs(
  left: SketchedRecord,
  right: SketchedRecord,
  similarity: WordSimilarity,
): Array<{ left: RecordColumn; right: RecordColumn; score: number }> {
  const a = columnsOf(left);
  const b = columnsOf(right);
  const pairs: Array<{ left: RecordColumn; right: RecordColumn; score: number }> = [];
  for (const x of a) {
    for (const y of b) {
      if (!valuesComparable(x, y) || typeCompatibility(x.sketch, y.sketch) === 0) continue;
      const fuzzy = [x, y].filter((c) => c.sketch.encoding === 'clk').length;
      if (fuzzy === 1) continue;
      const headers = headerSimilarity(x.sketch.header, y.sketch.header, similarity);
      // Fuzzy columns (CLKs) rarely share exact values: they pair when hashed under one key, best by header.
      const score = fuzzy === 2 ? fuzzyPairScore(x, y, headers) : exactPairScore(x, y, headers);
      if (score >= JOIN_THRESHOLD) pairs.push({ left: x, right: y, score });
    }
  }
  pairs.sort((p, q) => q.score - p.score);
  const used = new Set<RecordColumn>();
  return pairs.filter((p) => {
    if (used.has(p.left) || used.has(p.right)) return false;
    used.add(p.left);
    used.add(p.right);
    return true;
  });
}

export { totalRowsOf };
