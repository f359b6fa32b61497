// A column's figures merged from blocks of rows (csv-threads.ts: each block described by a thread).
import { type ColumnContext, ColumnFigures, type SampledValue } from './column-figures';
import type { DistinctState } from './distinct';
import { type ColumnPolicy, PLAIN } from './private-columns';

/** A ColumnAccumulator's figures over one block of rows, as plain data (its distinct values are counted apart). */
export interface ColumnBlock {
  rows: number;
  missing: number;
  nonMissing: number;
  kindCounts: number[];
  n: number;
  mean: number;
  m2: number;
  min: number;
  max: number;
  decimals: number;
  firstNonNumeric: string | null;
  formatted: string[];
  /** The block's reservoir sample (extractOption samples), rows counted from the block's start. */
  samples: SampledValue[];
  words: Array<[string, number]>;
  /** Counts of the block's non-numeric values ([hash53, value, count]); null when it had more than VALUE_COUNTS_CAP. */
  values: Array<[number, string, number]> | null;
}

/**
 * A column's figures from blocks of rows taken in file order: counts add up, means and variances
 * combine exactly as Chan et al. combine two Welford summaries, the first rows and first non-number
 * come from the earliest blocks, word counts are added and pruned as counting prunes them, and the
 * samples are a uniform draw from the blocks' samples weighted by their sizes (seeded, so the same
 * blocks give the same answer).
 */
export class ColumnMerger extends ColumnFigures {
  constructor(ctx: ColumnContext, policy: ColumnPolicy = PLAIN) {
    super(ctx, policy);
  }

  /** The next block, in file order. */
  add(block: ColumnBlock): void {
    const rowsBefore = this.rows;
    this.samples = this.mergedSamples(block, rowsBefore);
    this.rows += block.rows;
    this.missing += block.missing;
    this.nonMissing += block.nonMissing;
    block.kindCounts.forEach((count, kind) => (this.kindCounts[kind] += count));
    if (this.n === 0) [this.n, this.mean, this.m2] = [block.n, block.mean, block.m2];
    else if (block.n > 0) {
      const n = this.n + block.n;
      const delta = block.mean - this.mean;
      this.m2 += block.m2 + (delta * delta * this.n * block.n) / n;
      this.mean += (delta * block.n) / n;
      this.n = n;
    }
    if (block.min < this.min) this.min = block.min;
    if (block.max > this.max) this.max = block.max;
    if (block.decimals > this.decimals) this.decimals = block.decimals;
    this.firstNonNumeric ??= block.firstNonNumeric;
    block.formatted.forEach((text, i) => {
      if (rowsBefore + i < 5) this.formatted[rowsBefore + i] = text;
    });
    this.words.addEntries(block.words);
    this.addValueCounts(block.values);
  }

  /** Distinct values counted by a thread over the blocks it read (in any order). */
  addDistinct(state: DistinctState): void {
    this.distinct.mergeFrom(state);
  }

  /**
   * maxSamples values drawn from the union of the samples so far (of this.nonMissing values) and the
   * block's (of block.nonMissing): each pick comes from one side with the chance of its values left
   * undrawn, and is a random one of that side's sample; kept in row order.
   */
  private mergedSamples(block: ColumnBlock, rowsBefore: number): SampledValue[] {
    const later = block.samples.map(({ row, value }) => ({ row: row + rowsBefore, value }));
    const max = this.ctx.limits.maxSamples;
    if (this.samples.length + later.length <= max) return [...this.samples, ...later];
    const sides = [
      { pool: [...this.samples], left: this.nonMissing },
      { pool: later, left: block.nonMissing },
    ];
    const picked: SampledValue[] = [];
    while (picked.length < max) {
      const side = this.random() * (sides[0].left + sides[1].left) < sides[0].left ? sides[0] : sides[1];
      const [value] = side.pool.splice(Math.floor(this.random() * side.pool.length), 1);
      picked.push(value);
      side.left--;
    }
    return picked.sort((a, b) => a.row - b.row);
  }
}
