// What is kept of a column while its values are read, in constant memory: counts per kind, Welford's
// mean and variance, min and max, the first rows, a sample, its words and its distinct values. A
// ColumnAccumulator gathers them value by value (column.ts), a ColumnMerger block by block
// (column-merger.ts); both describe the column from them alike.
import { VALUE_COUNTS_CAP } from './column-profile';
import { type ColumnFacts, statsOf } from './column-stats';
import { DistinctCounter } from './distinct';
import type { ColumnPolicy } from './private-columns';
import { seededRandom } from './seeded-random';
import type { ColumnStats, ExtractionLimits, ExtractOption } from './types';
import { VALUE_KINDS } from './value-kinds';
import { WordCounts } from './words';

export interface ColumnContext {
  option: ExtractOption;
  limits: ExtractionLimits;
  /** Accept "2,6" as 2.6 (semicolon-delimited files use decimal commas). */
  decimalComma: boolean;
  distinctCap: number;
}

/** A sampled value and its row. */
export interface SampledValue {
  row: number;
  value: string;
}

export abstract class ColumnFigures {
  protected rows = 0;
  protected missing = 0;
  protected nonMissing = 0;
  protected readonly kindCounts = new Float64Array(VALUE_KINDS.length);
  // Welford
  protected n = 0;
  protected mean = 0;
  protected m2 = 0;
  protected min = Infinity;
  protected max = -Infinity;
  protected decimals = 0;
  protected firstNonNumeric: string | null = null;
  protected readonly formatted: string[] = [];
  /** The sample (extractOption samples), in row order. */
  protected samples: SampledValue[] = [];
  protected readonly random = seededRandom(0x5eed);
  protected readonly words: WordCounts;
  protected readonly distinct: DistinctCounter;
  /**
   * Exact counts of the column's non-numeric values by their hash53 ([value, count]), while it has at
   * most VALUE_COUNTS_CAP of them; null once it has more, or for hashed and masked columns, whose
   * values are not shown (column-profile.ts).
   */
  protected valueCounts: Map<number, [string, number]> | null;

  constructor(
    protected readonly ctx: ColumnContext,
    protected readonly policy: ColumnPolicy,
    /** Block mode: the counter of distinct values goes on from one block's accumulator to the next. */
    distinct?: DistinctCounter,
  ) {
    this.distinct = distinct ?? new DistinctCounter(ctx.distinctCap);
    this.words = new WordCounts(Math.max(1000, ctx.limits.maxWords * 4));
    this.valueCounts = policy.format === 'plain' && !policy.hash ? new Map() : null;
  }

  /**
   * Counts one non-numeric value by its hash. True when the value is new and still counted: the
   * caller then gives its text to keepValue. (No callback for the text: a closure per cell made
   * V8 allocate a context on every call of the cell methods.)
   */
  protected countValue(hash: number): boolean {
    const counts = this.valueCounts;
    if (counts === null) return false;
    const entry = counts.get(hash);
    if (entry) entry[1]++;
    else if (counts.size < VALUE_COUNTS_CAP) return true;
    else this.valueCounts = null;
    return false;
  }

  /** The text of a value countValue found new: counted once. */
  protected keepValue(hash: number, text: string): void {
    this.valueCounts?.set(hash, [text, 1]);
  }

  /** Adds counts gathered elsewhere (block mode); null (too many values there) ends the counting. */
  protected addValueCounts(counts: Array<[number, string, number]> | null): void {
    if (this.valueCounts === null) return;
    if (counts === null) {
      this.valueCounts = null;
      return;
    }
    for (const [hash, value, count] of counts) {
      const entry = this.valueCounts.get(hash);
      if (entry) entry[1] += count;
      else if (this.valueCounts.size < VALUE_COUNTS_CAP) this.valueCounts.set(hash, [value, count]);
      else {
        this.valueCounts = null;
        return;
      }
    }
  }

  /** The value counts as plain data (block mode). */
  protected valueCountEntries(): Array<[number, string, number]> | null {
    return this.valueCounts && [...this.valueCounts].map(([hash, [value, count]]) => [hash, value, count]);
  }

  /** Statistics so far; header index names nothing here, the table keys them. */
  stats(): ColumnStats {
    const facts: ColumnFacts = {
      rows: this.rows,
      missing: this.missing,
      kindCounts: this.kindCounts,
      n: this.n,
      min: this.min,
      max: this.max,
      mean: this.mean,
      std: this.n > 1 ? Math.sqrt(this.m2 / (this.n - 1)) : 0,
      decimals: this.decimals,
      firstNonNumeric: this.firstNonNumeric,
      distinct: this.distinct.count(),
      distinctExact: this.distinct.isExact,
      formatted: this.firstRows(),
      samples: this.samples.map((s) => s.value),
      words: this.words.top(this.ctx.limits.maxWords),
      valueCounts: this.valueCounts && [...this.valueCounts.values()],
    };
    return statsOf(facts, this.ctx, this.policy);
  }

  /** Word counts of the text values, for the file's KEYWORDS. */
  wordCounts(): Array<[string, number]> {
    return this.words.entries();
  }

  /** The first rows' display texts ('' when missing), at most 5. */
  protected firstRows(): string[] {
    return Array.from({ length: Math.min(5, this.rows) }, (_, i) => this.formatted[i] ?? '');
  }
}
