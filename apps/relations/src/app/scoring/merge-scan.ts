// Merge scan (spec: Merge score): candidate field pairs across the records of the work area, each
// with a total similarity. Pure and reusable: merge jobs score the pairs a user picks the same way.
import type { SketchedRecord } from '../records/related-record';
import { columnsOf, type RecordColumn, typeCompatibility, valuesComparable, valuesWithheld } from './columns';
import { headerSimilarity, overlapOf, type WordSimilarity } from './sketch-math';
import type { MergeCandidate } from './types';

/** A candidate pair is listed at or above this total similarity. */
export const MERGE_THRESHOLD = 0.5;
export const MAX_MERGE_CANDIDATES = 100;

/**
 * How alike two columns are for a merge: 0.4 header similarity + 0.1 type compatibility + 0.5 value
 * overlap (the larger containment; masked columns, and columns of different privacy, have none).
 * When the values of either are withheld from the caller (scoring/value-sight.ts) the header and
 * type carry it alone: 0.8 header + 0.2 type.
 */
export function fieldSimilarity(a: RecordColumn, b: RecordColumn, similarity: WordSimilarity): number {
  const header = headerSimilarity(a.sketch.header, b.sketch.header, similarity);
  const type = typeCompatibility(a.sketch, b.sketch);
  if (valuesWithheld(a) || valuesWithheld(b)) return 0.8 * header + 0.2 * type;
  const overlap = valuesComparable(a, b) ? overlapOf(a.sketch, b.sketch) : null;
  const value = overlap ? Math.max(overlap.containmentAinB, overlap.containmentBinA) : 0;
  return 0.4 * header + 0.1 * type + 0.5 * value;
}

/** Where a column is: record, file, table and column index (a candidate's id names both of its columns so). */
const columnKey = (record: SketchedRecord, column: RecordColumn) => `${record.record.id}:${column.fileId}:${column.tableIndex}:${column.sketch.index}`;

/**
 * The candidate field pairs of every pair of records, best first: for each column of the left
 * record its best counterpart in the right one, when it reaches MERGE_THRESHOLD.
 */
export function mergeCandidates(records: SketchedRecord[], similarity: WordSimilarity): MergeCandidate[] {
  const candidates: MergeCandidate[] = [];
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const [left, right] = [records[i], records[j]];
      const rightColumns = columnsOf(right);
      for (const a of columnsOf(left)) {
        let best: { column: RecordColumn; score: number } | null = null;
        for (const b of rightColumns) {
          if (typeCompatibility(a.sketch, b.sketch) === 0 && a.sketch.privacy === b.sketch.privacy) continue;
          const score = fieldSimilarity(a, b, similarity);
          if (!best || score > best.score) best = { column: b, score };
        }
        if (!best || best.score < MERGE_THRESHOLD) continue;
        candidates.push({
          id: `${columnKey(left, a)}|${columnKey(right, best.column)}`,
          record_left: left.record.id,
          record_left_name: left.record.name,
          record_right: right.record.id,
          record_right_name: right.record.name,
          header_left: a.sketch.header,
          header_right: best.column.sketch.header,
          total_sim: Number(best.score.toFixed(4)),
        });
      }
    }
  }
  candidates.sort((p, q) => q.total_sim - p.total_sim || p.id.localeCompare(q.id));
  return candidates.slice(0, MAX_MERGE_CANDIDATES);
}
