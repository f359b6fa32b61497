// Running statistics of one column in constant memory, value by value: each cell's kind (a text's
// classified here), Welford's mean and variance, min and max, missing count, capped distinct values,
// first rows, a reservoir sample and the column's words.
import { ASK_TEXT, asciiCell, asciiText, classifyAscii, isMissingAscii, MISSING_KIND, trimAscii } from './ascii-cells';
import type { ColumnBlock } from './column-merger';
import { type ColumnContext, ColumnFigures } from './column-figures';
import { type DistinctCounter, type DistinctState, hash53, hash53Ascii } from './distinct';
import { type ColumnPolicy, PLAIN } from './private-columns';
import type { ValueKind } from './types';
import { BOOL, DAT, FLT, INT, MISSING_TOKENS, TIM, TXT, VALUE_KINDS } from './value-kinds';
import { detach, words } from './words';

/** A cell as read: text from CSV/HL7, typed values from spreadsheets. */
export type CellValue = string | number | boolean | Date | null | undefined;

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
  return code <= FLT ? { kind: VALUE_KINDS[code], number: parsed } : { kind: VALUE_KINDS[code] };
}

export function isMissingText(text: string): boolean {
  if (text.length === 0) return true;
  if (text.length > 4) return false;
  const c = text.charCodeAt(0) | 0x20; // missing tokens start with n, ?, " or #
  return (c === 0x6e || c === 0x3f || c === 0x22 || c === 0x23) && MISSING_TOKENS.has(text.toLowerCase());
}

function trimmed(text: string): string {
  return text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) ? text.trim() : text;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export class ColumnAccumulator extends ColumnFigures {
  private wordMemo: Map<number, string[]> | null = new Map();
  private memoHits = 0;
  private memoMisses = 0;

  constructor(
    ctx: ColumnContext,
    policy: ColumnPolicy = PLAIN,
    /** Block mode: the counter of distinct values goes on from one block's accumulator to the next. */
    distinct?: DistinctCounter,
  ) {
    super(ctx, policy, distinct);
    this.readsBytes = policy.format === 'plain' && !policy.hash;
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
      if (this.countValue(hash)) this.keepValue(hash, detach(truncate(text, this.ctx.limits.maxCellChars)));
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
      asciiCell.seenBefore = this.distinct.add(x);
    } else {
      if (this.firstNonNumeric === null) this.firstNonNumeric = detach(truncate((text ??= asciiText(bytes, from, to)), 40));
      const hash = hash53Ascii(bytes, from, to);
      asciiCell.textHash = hash;
      asciiCell.seenBefore = this.distinct.addHash(hash);
      if (this.countValue(hash)) this.keepValue(hash, truncate(text ?? asciiText(bytes, from, to), this.ctx.limits.maxCellChars));
      if (kind === TXT) this.words.addAsciiWords(bytes, from, to);
    }
    if (row < 5) this.formatted[row] = detach(truncate(text ?? asciiText(bytes, from, to), this.ctx.limits.maxCellChars));
    if (this.ctx.option === 'samples') {
      const slot = this.sampleSlot();
      if (slot >= 0) this.keepSample(slot, row, text ?? asciiText(bytes, from, to));
    }
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
      formatted: this.firstRows(),
      samples: this.samples,
      words: this.words.entries(),
      values: this.valueCountEntries(),
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
    if (this.samples.length < max) return this.samples.length;
    const j = Math.floor(this.random() * this.nonMissing);
    return j < max ? j : -1;
  }

  private keepSample(slot: number, row: number, value: string): void {
    const entry = { row, value: detach(truncate(value, this.ctx.limits.maxCellChars)) };
    if (slot < this.samples.length) this.samples.splice(slot, 1);
    this.samples.push(entry);
  }
}
