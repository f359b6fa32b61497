// Running statistics of one column in constant memory: Welford's mean and variance, min and max,
// missing count, capped distinct values, first rows, a reservoir sample and the column's words.
import { ASK_TEXT, asciiCell, asciiText, classifyAscii, isMissingAscii, MISSING_KIND, trimAscii } from './ascii-cells';
import { DistinctCounter, type DistinctState, hash53, hash53Ascii } from './distinct';
import { type ColumnPolicy, maskOf, PLAIN } from './private-columns';
import type { ColumnStats, ColumnType, ExtractionLimits, ExtractOption, ValueKind } from './types';
import { detach, WordCounts, words } from './words';

/** A cell as read: text from CSV/HL7, typed values from spreadsheets. */
export type CellValue = string | number | boolean | Date | null | undefined;

const MISSING = new Set(['', 'na', 'n/a', 'null', 'none', 'nan', '?', '""', '#n/a']);
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const BOOLEAN = new Set(['true', 'false', 'yes', 'no']);
const DATE = [
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
  /^\d{1,2}[/.-]\d{1,2}[/.-]\d{4}$/,
  /^\d{4}\/\d{1,2}\/\d{1,2}$/,
];
const TIME = /^\d{1,2}[:.]\d{2}(?:[:.]\d{2})?$/;
/** Word memo misses after which a column whose memo hit under a fifth of the time stops using it. */
const MEMO_TRIAL = 4096;
/** A share of non-numbers this small still leaves a column numeric (with an error naming them). */
const NUMERIC_TOLERANCE = 0.1;

export interface ColumnContext {
  option: ExtractOption;
  limits: ExtractionLimits;
  /** Accept "2,6" as 2.6 (semicolon-delimited files use decimal commas). */
  decimalComma: boolean;
  distinctCap: number;
}

const KINDS: ValueKind[] = ['integer', 'float', 'boolean', 'date', 'time', 'text'];
const INT = 0;
const FLT = 1;
const BOOL = 2;
const DAT = 3;
const TIM = 4;
const TXT = 5;

/** The number parsed by the last classify() that returned integer or float (no allocation per cell). */
let parsed = 0;

/** INT or FLT when the text is a plain decimal number (optional sign, fraction, exponent), else -1. */
function numberKind(text: string): number {
  const length = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === 43 || c === 45) c = text.charCodeAt(++i);
  const intStart = i;
  while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
  const intDigits = i - intStart;
  if (i === length) return intDigits > 0 && intDigits <= 15 ? INT : -1;
  let fracDigits = 0;
  if (c === 46) {
    c = text.charCodeAt(++i);
    const fracStart = i;
    while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
    fracDigits = i - fracStart;
  }
  if (intDigits + fracDigits === 0) return -1;
  if (i < length && (c === 101 || c === 69)) {
    c = text.charCodeAt(++i);
    if (c === 43 || c === 45) c = text.charCodeAt(++i);
    const expStart = i;
    while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
    if (i === expStart) return -1;
  }
  return i === length ? FLT : -1;
}

function classifyCode(text: string, decimalComma: boolean): number {
  const first = text.charCodeAt(0);
  // Only strings starting with a digit, sign or dot can be numbers, dates or times.
  if ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46) {
    const numeric = numberKind(text);
    if (numeric >= 0) return ((parsed = Number(text)), numeric);
    if (decimalComma && DECIMAL_COMMA.test(text)) return ((parsed = Number(text.replace(',', '.'))), FLT);
    for (const pattern of DATE) if (pattern.test(text)) return DAT;
    return TIME.test(text) ? TIM : TXT;
  }
  if (text.length <= 5 && BOOLEAN.has(text.toLowerCase())) return BOOL;
  return TXT;
}

/** The kind of a trimmed, non-missing text value (and its number when numeric). */
export function classify(text: string, decimalComma: boolean): { kind: ValueKind; number?: number } {
  const code = classifyCode(text, decimalComma);
  return code <= FLT ? { kind: KINDS[code], number: parsed } : { kind: KINDS[code] };
}

export function isMissingText(text: string): boolean {
  if (text.length === 0) return true;
  if (text.length > 4) return false;
  const c = text.charCodeAt(0) | 0x20; // missing tokens start with n, ?, " or #
  return (c === 0x6e || c === 0x3f || c === 0x22 || c === 0x23) && MISSING.has(text.toLowerCase());
}

function trimmed(text: string): string {
  return text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) ? text.trim() : text;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** mulberry32: a small, fast, seeded generator, so samples (and benchmark data) are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class ColumnAccumulator {
  private rows = 0;
  private missing = 0;
  private nonMissing = 0;
  private readonly kindCounts = new Float64Array(KINDS.length);
  // Welford
  private n = 0;
  private mean = 0;
  private m2 = 0;
  private min = Infinity;
  private max = -Infinity;
  private decimals = 0;
  private firstNonNumeric: string | null = null;
  private readonly distinct: DistinctCounter;
  private readonly formatted: string[] = [];
  private readonly reservoir: Array<{ row: number; value: string }> = [];
  private readonly random = seededRandom(0x5eed);
  private readonly words: WordCounts;
  private wordMemo: Map<number, string[]> | null = new Map();
  private memoHits = 0;
  private memoMisses = 0;

  constructor(
    private readonly ctx: ColumnContext,
    private readonly policy: ColumnPolicy = PLAIN,
    /** Block mode: the counter of distinct values goes on from one block's accumulator to the next. */
    distinct?: DistinctCounter,
  ) {
    this.distinct = distinct ?? new DistinctCounter(ctx.distinctCap);
    this.readsBytes = policy.format === 'plain' && !policy.hash;
    this.words = new WordCounts(Math.max(1000, ctx.limits.maxWords * 4));
  }

  add(value: CellValue, display?: string): void {
    const row = this.rows++;
    if (value === null || value === undefined) return this.addMissing(row);
    let text: string;
    let kind: number;
    if (typeof value === 'string') {
      text = trimmed(value);
      if (isMissingText(text)) return this.addMissing(row);
      kind = classifyCode(text, this.ctx.decimalComma);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return this.addMissing(row);
      text = String(value);
      parsed = value;
      kind = Number.isInteger(value) ? INT : FLT;
    } else if (typeof value === 'boolean') {
      text = String(value);
      kind = BOOL;
    } else {
      if (Number.isNaN(value.getTime())) return this.addMissing(row);
      text = value.toISOString();
      kind = DAT;
    }
    if (this.policy.hash) {
      // A hashed column is described from the hashes alone: no raw value goes further than here.
      text = this.policy.hash(text);
      kind = TXT;
      display = undefined;
    }
    this.nonMissing++;
    this.kindCounts[kind]++;
    if (kind <= FLT) {
      const x = parsed;
      this.addNumber(x, text);
      this.distinct.add(x);
    } else {
      if (this.firstNonNumeric === null) this.firstNonNumeric = detach(truncate(text, 40));
      const hash = hash53(text);
      this.distinct.addHash(hash);
      if (kind === TXT && this.policy.format === 'plain' && !this.policy.hash) this.addWords(text, hash);
    }
    if (row < 5) this.formatted[row] = detach(truncate(display ?? text, this.ctx.limits.maxCellChars));
    if (this.ctx.option === 'samples' && this.policy.format === 'plain') this.sample(row, display ?? text);
  }

  /** Whether addAscii may be given this column's cells: a plain column, not hashed or masked. */
  readonly readsBytes: boolean;

  /**
   * A cell given as bytes[start, end), all ASCII, of a column that readsBytes: exactly what add()
   * does with the same text, without making a string of it unless a figure keeps it.
   */
  addAscii(bytes: Uint8Array, start: number, end: number): void {
    const row = this.rows++;
    trimAscii(bytes, start, end);
    const from = asciiCell.start;
    const to = asciiCell.end;
    if (isMissingAscii(bytes, from, to)) {
      asciiCell.kind = MISSING_KIND;
      return this.addMissing(row);
    }
    let kind = classifyAscii(bytes, from, to, this.ctx.decimalComma);
    let text: string | null = null;
    if (kind === ASK_TEXT) kind = classifyCode((text = asciiText(bytes, from, to)), this.ctx.decimalComma);
    asciiCell.kind = kind;
    asciiCell.textHash = NaN;
    this.nonMissing++;
    this.kindCounts[kind]++;
    if (kind <= FLT) {
      const x = asciiCell.number;
      this.addNumberValue(x, asciiCell.fractionDigits);
      this.distinct.add(x);
    } else {
      if (this.firstNonNumeric === null) this.firstNonNumeric = detach(truncate((text ??= asciiText(bytes, from, to)), 40));
      this.distinct.addHash((asciiCell.textHash = hash53Ascii(bytes, from, to)));
      if (kind === TXT) this.words.addAsciiWords(bytes, from, to);
    }
    if (row < 5) this.formatted[row] = detach(truncate(text ?? asciiText(bytes, from, to), this.ctx.limits.maxCellChars));
    if (this.ctx.option === 'samples') {
      const slot = this.sampleSlot();
      if (slot >= 0) this.keepSample(slot, row, text ?? asciiText(bytes, from, to));
    }
  }

  /** Statistics so far; header index names nothing here, the table keys them. */
  stats(): ColumnStats {
    return statsOf(
      {
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
        formatted: Array.from({ length: Math.min(5, this.rows) }, (_, i) => this.formatted[i] ?? ''),
        samples: this.reservoir.map((s) => s.value),
        words: this.words.top(this.ctx.limits.maxWords),
      },
      this.ctx,
      this.policy,
    );
  }

  /** Word counts of the text values, for the file's KEYWORDS. */
  wordCounts(): Array<[string, number]> {
    return this.words.entries();
  }

  /**
   * Block mode (csv-threads.ts): what this accumulator gathered, as plain data for the thread that
   * merges the blocks in order (ColumnMerger), and an accumulator for the next block, which goes on
   * with the same distinct-value counter (whose result does not depend on the order of the values).
   */
  finishBlock(): { block: ColumnBlock; next: ColumnAccumulator } {
    const block: ColumnBlock = {
      rows: this.rows,
      missing: this.missing,
      nonMissing: this.nonMissing,
      kindCounts: Array.from(this.kindCounts),
      n: this.n,
      mean: this.mean,
      m2: this.m2,
      min: this.min,
      max: this.max,
      decimals: this.decimals,
      firstNonNumeric: this.firstNonNumeric,
      formatted: Array.from({ length: Math.min(5, this.rows) }, (_, i) => this.formatted[i] ?? ''),
      samples: this.reservoir,
      words: this.words.entries(),
    };
    return { block, next: new ColumnAccumulator(this.ctx, this.policy, this.distinct) };
  }

  distinctState(): DistinctState {
    return this.distinct.state();
  }

  private addMissing(row: number): void {
    this.missing++;
    if (row < 5) this.formatted[row] = '';
  }

  private addNumber(x: number, text: string): void {
    const dot = text.indexOf('.');
    this.addNumberValue(x, dot >= 0 && !/e/i.test(text) ? text.length - dot - 1 : -1);
  }

  /** `fractionDigits`: digits after the decimal point of a number written without an exponent, else -1. */
  private addNumberValue(x: number, fractionDigits: number): void {
    this.n++;
    const delta = x - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (x - this.mean);
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    if (fractionDigits > this.decimals) this.decimals = Math.min(6, fractionDigits);
  }

  /**
   * Categorical columns repeat their values: their words are looked up by the value's hash. Columns
   * of unique texts would only churn that memo, so it is dropped once it has mostly missed (a cache:
   * the counts are the same either way).
   */
  private addWords(text: string, hash: number): void {
    const memo = this.wordMemo;
    const found = memo?.get(hash);
    if (found) {
      this.memoHits++;
      this.words.addCounted(found);
      return;
    }
    const counted = this.words.addWords(words(text));
    if (!memo) return;
    if (++this.memoMisses === MEMO_TRIAL && this.memoHits < MEMO_TRIAL / 4) {
      this.wordMemo = null;
      return;
    }
    if (memo.size >= 512) memo.clear();
    memo.set(hash, counted);
  }

  /** Algorithm R over non-missing values, kept in row order. */
  private sample(row: number, value: string): void {
    const slot = this.sampleSlot();
    if (slot >= 0) this.keepSample(slot, row, value);
  }

  /** Where the reservoir keeps the current value: its length (append), a kept value's index, or -1 (not kept). */
  private sampleSlot(): number {
    const max = this.ctx.limits.maxSamples;
    if (this.reservoir.length < max) return this.reservoir.length;
    const j = Math.floor(this.random() * this.nonMissing);
    return j < max ? j : -1;
  }

  private keepSample(slot: number, row: number, value: string): void {
    const entry = { row, value: detach(truncate(value, this.ctx.limits.maxCellChars)) };
    if (slot < this.reservoir.length) this.reservoir.splice(slot, 1);
    this.reservoir.push(entry);
  }
}

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
  samples: Array<{ row: number; value: string }>;
  words: Array<[string, number]>;
}

/**
 * A column's figures from blocks of rows taken in file order: counts add up, means and variances
 * combine exactly as Chan et al. combine two Welford summaries, the first rows and first non-number
 * come from the earliest blocks, word counts are added and pruned as counting prunes them, and the
 * samples are a uniform draw from the blocks' samples weighted by their sizes (seeded, so the same
 * blocks give the same answer).
 */
export class ColumnMerger implements Pick<ColumnAccumulator, 'stats' | 'wordCounts'> {
  private rows = 0;
  private missing = 0;
  private nonMissing = 0;
  private readonly kindCounts = new Float64Array(KINDS.length);
  private n = 0;
  private mean = 0;
  private m2 = 0;
  private min = Infinity;
  private max = -Infinity;
  private decimals = 0;
  private firstNonNumeric: string | null = null;
  private readonly formatted: string[] = [];
  private samples: Array<{ row: number; value: string }> = [];
  private readonly random = seededRandom(0x5eed);
  private readonly words: WordCounts;
  private readonly distinct: DistinctCounter;

  constructor(
    private readonly ctx: ColumnContext,
    private readonly policy: ColumnPolicy = PLAIN,
  ) {
    this.words = new WordCounts(Math.max(1000, ctx.limits.maxWords * 4));
    this.distinct = new DistinctCounter(ctx.distinctCap);
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
  }

  /** Distinct values counted by a thread over the blocks it read (in any order). */
  addDistinct(state: DistinctState): void {
    this.distinct.mergeFrom(state);
  }

  stats(): ColumnStats {
    return statsOf(
      {
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
        formatted: Array.from({ length: Math.min(5, this.rows) }, (_, i) => this.formatted[i] ?? ''),
        samples: this.samples.map((s) => s.value),
        words: this.words.top(this.ctx.limits.maxWords),
      },
      this.ctx,
      this.policy,
    );
  }

  wordCounts(): Array<[string, number]> {
    return this.words.entries();
  }

  /**
   * maxSamples values drawn from the union of the samples so far (of this.nonMissing values) and the
   * block's (of block.nonMissing): each pick comes from one side with the chance of its values left
   * undrawn, and is a random one of that side's sample; kept in row order.
   */
  private mergedSamples(block: ColumnBlock, rowsBefore: number): Array<{ row: number; value: string }> {
    const later = block.samples.map(({ row, value }) => ({ row: row + rowsBefore, value }));
    const max = this.ctx.limits.maxSamples;
    if (this.samples.length + later.length <= max) return [...this.samples, ...later];
    const sides = [
      { pool: [...this.samples], left: this.nonMissing },
      { pool: later, left: block.nonMissing },
    ];
    const picked: Array<{ row: number; value: string }> = [];
    while (picked.length < max) {
      const side = this.random() * (sides[0].left + sides[1].left) < sides[0].left ? sides[0] : sides[1];
      const [value] = side.pool.splice(Math.floor(this.random() * side.pool.length), 1);
      picked.push(value);
      side.left--;
    }
    return picked.sort((a, b) => a.row - b.row);
  }
}

/**
 * What a column's statistics are made of, whether a ColumnAccumulator saw every value or a database
 * answered aggregate queries for it (SQL tables): both describe columns with statsOf.
 */
export interface ColumnFacts {
  rows: number;
  missing: number;
  /** Non-missing values per kind, in the order integer, float, boolean, date, time, text. */
  kindCounts: ArrayLike<number>;
  /** Numeric values (integer and float kinds): how many, and their MIN, MAX, MEAN and sample STD. */
  n: number;
  min: number;
  max: number;
  mean: number;
  std: number;
  /** Most digits after the decimal point of a numeric value (at most 6), for synthetic samples. */
  decimals: number;
  /** The first non-numeric value (cut to 40 characters), named when a numeric column has some. */
  firstNonNumeric: string | null;
  distinct: number;
  distinctExact: boolean;
  /** The first rows' display texts ('' when missing), at most 5. */
  formatted: string[];
  /** Real values, for extractOption 'samples'. */
  samples: string[];
  /** The column's most frequent meaningful words. */
  words: string[];
}

/** The kinds of values, in the order of ColumnFacts.kindCounts. */
export const VALUE_KINDS: readonly ValueKind[] = KINDS;

/** A column's type from its kinds: numeric if (nearly) all values are numbers, else a kind all share, else text. */
export function typeOf(kindCounts: ArrayLike<number>, nonMissing: number): ColumnType {
  if (nonMissing === 0) return 'empty';
  if (kindCounts[INT] + kindCounts[FLT] >= nonMissing * (1 - NUMERIC_TOLERANCE)) return kindCounts[FLT] > 0 ? 'float' : 'integer';
  for (const kind of [DAT, TIM, BOOL]) if (kindCounts[kind] === nonMissing) return KINDS[kind];
  return 'text';
}

function kindsOf(kindCounts: ArrayLike<number>): Partial<Record<ValueKind, number>> {
  const kinds: Partial<Record<ValueKind, number>> = {};
  KINDS.forEach((kind, i) => {
    if (kindCounts[i] > 0) kinds[kind] = kindCounts[i];
  });
  return kinds;
}

/** A column's META statistics (spec STATS entry) from its facts, under its share format. */
export function statsOf(facts: ColumnFacts, ctx: Pick<ColumnContext, 'option' | 'limits'>, policy: ColumnPolicy = PLAIN): ColumnStats {
  const nonMissing = facts.rows - facts.missing;
  const type = typeOf(facts.kindCounts, nonMissing);
  const numeric = type === 'integer' || type === 'float';
  const numbers = facts.kindCounts[INT] + facts.kindCounts[FLT];
  const dict = { type, count: nonMissing, distinct: facts.distinct, distinct_exact: facts.distinctExact, kinds: kindsOf(facts.kindCounts) };
  const duplicates = Math.max(0, nonMissing - facts.distinct);
  if (policy.format === 'mask') {
    // A masked column: header, type and counts, but no value. Numbers keep MIN, MAX, MEAN and STD
    // only when the owner listed the column in the summary list.
    const summary = numeric && policy.summary;
    const masks = facts.formatted.map(maskOf);
    return {
      MIN: summary ? facts.min : null,
      MAX: summary ? facts.max : null,
      MEAN: summary ? facts.mean : null,
      STD: summary ? facts.std : null,
      FORMATTED_VALS: masks,
      SAMPLE_VALS: summary ? syntheticSamples(facts, type, masks, ctx.limits) : [...new Set(masks.filter((m) => m !== ''))].slice(0, ctx.limits.maxSamples),
      DUPLICATE_VALS: duplicates,
      MISSING_VALS: facts.missing,
      WORDSET: [],
      ERRORS: numeric && numbers < nonMissing ? [`${nonMissing - numbers} of ${nonMissing} values are not numbers`] : [],
      DICT: dict,
    };
  }
  const errors: string[] = [];
  if (numeric && numbers < nonMissing) {
    errors.push(
      `${nonMissing - numbers} of ${nonMissing} values are not numbers (first: "${facts.firstNonNumeric ?? ''}"); MIN, MAX, MEAN and STD use the ${numbers} numbers`,
    );
  }
  return {
    MIN: numeric ? facts.min : null,
    MAX: numeric ? facts.max : null,
    MEAN: numeric ? facts.mean : null,
    STD: numeric ? facts.std : null,
    FORMATTED_VALS: facts.formatted,
    SAMPLE_VALS: ctx.option === 'samples' ? facts.samples : syntheticSamples(facts, type, facts.formatted, ctx.limits),
    DUPLICATE_VALS: duplicates,
    MISSING_VALS: facts.missing,
    WORDSET: type === 'text' ? facts.words : [],
    ERRORS: errors,
    DICT: dict,
  };
}

/**
 * 'metadata' shows the shape of the data without any real cell: numeric columns get evenly spaced
 * numbers between MIN and MAX, other columns character masks (X upper, x lower, 9 digit) of their
 * first values.
 */
function syntheticSamples(facts: ColumnFacts, type: ColumnType, first: string[], limits: ExtractionLimits): string[] {
  if (type === 'empty') return [];
  if (type === 'integer' || type === 'float') {
    const format = (x: number) => (type === 'integer' ? String(Math.round(x)) : x.toFixed(Math.max(1, facts.decimals)));
    const count = Math.min(5, limits.maxSamples);
    if (facts.min === facts.max || count < 2) return [format(facts.min)];
    return Array.from({ length: count }, (_, i) => format(facts.min + ((facts.max - facts.min) * i) / (count - 1)));
  }
  const masks = first.filter((v) => v !== '').map(maskOf);
  return [...new Set(masks)].slice(0, limits.maxSamples);
}
