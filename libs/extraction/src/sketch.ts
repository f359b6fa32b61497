// Column sketches: bounded summaries of each column, gathered in the same pass as extraction, for
// the relations service (joinability, statistics, linkability) without keeping the file's values.
//  - a bottom-k set of 32-bit value hashes (exact set while a column has at most k distinct values),
//    from which Jaccard similarity and containment of two columns are estimated;
//  - quantiles of numeric columns from a seeded reservoir (exact up to RESERVOIR numbers), for NRMSD;
//  - the column's words (already in META) and its type and counts.
// Privacy: a masked or excluded column gets no value sketch at all; a hashed column is sketched from
// its keyed hashes only, so its raw values never reach a sketch.
import { asciiCell, asciiText, MISSING_KIND, otherNumberOfAscii } from './ascii-cells';
import { type CellValue, classify, isMissingText } from './column';
import { numericProfile } from './column-profile';
import { hash53, hash53Ascii, hash53AsciiLower } from './distinct';
import type { ColumnPolicy } from './private-columns';
import { SeededRandom } from './seeded-random';
import { PriorityReservoir } from './priority-reservoir';
import type { CellObserver, ColumnSketchState, TableObserver, TableObserverFactory, TableSketchState } from './table-observer';
import type { ColumnStats, ColumnType, FileTable } from './types';
import { FLT } from './value-kinds';

/** Values kept per column sketch (bottom-k). */
export const SKETCH_K = 256;
/** Numbers kept per numeric column for its quantiles. */
export const SKETCH_RESERVOIR = 20_000;
/** Quantile levels 0, 1/100, ..., 1. */
export const SKETCH_QUANTILES = 101;
/** Columns sketched per file (every table together), so one file's sketch stays a small event. */
export const MAX_SKETCHED_COLUMNS = 100;

export type ColumnPrivacyKind = 'plain' | 'hashed' | 'masked';

export interface NumericSketch {
  min: number;
  max: number;
  mean: number;
  std: number;
  /** SKETCH_QUANTILES values at levels i / (SKETCH_QUANTILES - 1), linear interpolation (R type 7). */
  quantiles: number[];
  /** How many numbers the quantiles were computed from (all of them when exact). */
  sampled: number;
  exact: boolean;
}

export interface ColumnSketch {
  /** Position in the table's shown headers (META HEADERS). */
  index: number;
  header: string;
  privacy: ColumnPrivacyKind;
  type: ColumnType;
  count: number;
  missing: number;
  distinct: number;
  /** Ascending 32-bit hashes of the normalised values: the SKETCH_K smallest (all when fewer). Empty when masked. */
  minhash: number[];
  /** Numeric plain columns only. */
  numeric: NumericSketch | null;
  /** Plain text columns: the column's most frequent words (META WORDSET). */
  words: string[];
  /** Hashed columns whose values are CLKs (fuzzy: keyed Bloom filters of bigrams, compared by Dice similarity). */
  encoding?: 'clk';
  /** Hashed columns: the id of the linkage key (CLKs compare only under one key; their minhash finds equal filters only). */
  linkageKeyId?: string;
}

export interface TableSketch {
  /** The file name for a CSV, the sheet name of a workbook, the member path inside an archive. */
  name: string;
  totalRows: number;
  columns: ColumnSketch[];
}

/**
 * The text a value is hashed by: trimmed, lower-case for text, numbers in canonical form (so "1.0"
 * and "1" are one value), keyed hashes as they are. null for a missing cell.
 */
export function normalisedValue(value: CellValue, policy?: ColumnPolicy): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === 'string') {
    text = value.trim();
    if (isMissingText(text)) return null;
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'boolean') text = String(value);
  else {
    if (Number.isNaN(value.getTime())) return null;
    text = value.toISOString();
  }
  if (policy?.hash) return policy.hash(text);
  const { kind, number } = classify(text, false);
  if (number !== undefined && (kind === 'integer' || kind === 'float')) return String(number);
  return text.toLowerCase();
}

/** The 32-bit hash values are sketched by (the low bits of hash53, well mixed). */
export function valueHash(normalised: string): number {
  return hash53(normalised) >>> 0; // the low 32 bits (ToUint32)
}

/** Keeps the k smallest distinct hashes. */
class BottomK {
  private readonly heap: number[] = []; // max-heap of the kept hashes
  private readonly kept = new Set<number>();

  constructor(private readonly k: number) {}

  add(h: number): void {
    const heap = this.heap;
    // Full, and not below the largest kept: kept already or not kept at all (most values, once full).
    if (heap.length === this.k && h >= heap[0]) return;
    if (this.kept.has(h)) return;
    if (heap.length < this.k) {
      heap.push(h);
      this.kept.add(h);
      this.up(heap.length - 1);
    } else if (h < heap[0]) {
      this.kept.delete(heap[0]);
      heap[0] = h;
      this.kept.add(h);
      this.down(0);
    }
  }

  values(): number[] {
    return [...this.heap].sort((a, b) => a - b);
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] >= heap[i]) return;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < heap.length && heap[l] > heap[largest]) largest = l;
      if (r < heap.length && heap[r] > heap[largest]) largest = r;
      if (largest === i) return;
      [heap[largest], heap[i]] = [heap[i], heap[largest]];
      i = largest;
    }
  }
}

/** Quantiles of sorted numbers at `levels` evenly spaced levels, linear interpolation (R type 7, numpy's default). */
export function quantilesOf(sorted: ArrayLike<number>, levels = SKETCH_QUANTILES): number[] {
  const n = sorted.length;
  if (n === 0) return [];
  return Array.from({ length: levels }, (_, i) => {
    const position = ((n - 1) * i) / (levels - 1);
    const low = Math.floor(position);
    const high = Math.min(n - 1, low + 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
  });
}

/** The sketch of a numeric column whose reservoir keeps `sorted` (ascending) of the `seen` numbers; null without numbers or statistics. */
function numericSketch(stats: ColumnStats, { sorted, seen }: { sorted: Float64Array; seen: number }): NumericSketch | null {
  if (sorted.length === 0 || stats.MIN === null || stats.MAX === null || stats.MEAN === null || stats.STD === null) return null;
  return {
    min: stats.MIN,
    max: stats.MAX,
    mean: stats.MEAN,
    std: stats.STD,
    quantiles: quantilesOf(sorted),
    sampled: sorted.length,
    exact: seen <= SKETCH_RESERVOIR,
  };
}

/** Algorithm R over a column's numbers, seeded so the same file gives the same sketch. */
class NumberReservoir {
  private readonly values = new Float64Array(SKETCH_RESERVOIR);
  private seen = 0;
  private readonly random = new SeededRandom(0x5ca1e);

  add(x: number): void {
    if (this.seen < SKETCH_RESERVOIR) this.values[this.seen] = x;
    else {
      const j = this.random.below(this.seen + 1);
      if (j < SKETCH_RESERVOIR) this.values[j] = x;
    }
    this.seen++;
  }

  private sortedCache: Float64Array | null = null;

  /** The kept numbers, ascending, and how many numbers the column had. */
  numbers(): { sorted: Float64Array; seen: number } {
    return { sorted: this.sorted(), seen: this.seen };
  }

  private sorted(): Float64Array {
    return (this.sortedCache ??= this.values.slice(0, Math.min(this.seen, SKETCH_RESERVOIR)).sort());
  }
}

function hasCapital(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] >= 65 && bytes[i] <= 90) return true;
  return false;
}

/**
 * valueHash(normalisedValue(text)) of the ASCII cell ColumnAccumulator.addAscii has just read
 * (asciiCell), from its bytes: for a CellObserver's addReadAscii. NaN for a missing cell. A number's
 * canonical text (String(number)) is most often the cell's own, or that without the zeros ending
 * its fraction, hashed in place; a text is hashed lower-cased, which is the statistics' hash when it
 * has no capital letter. A number written with a decimal comma is hashed as its text, as
 * normalisedValue does ("2,5" and "2,50" differ).
 */
export function readAsciiValueHash(bytes: Uint8Array): number {
  const cell = asciiCell;
  if (cell.kind === MISSING_KIND) return NaN;
  const from = cell.start;
  const to = cell.end;
  if (cell.kind <= FLT && !cell.decimalComma) return (cell.canonicalEnd >= 0 ? hash53Ascii(bytes, from, cell.canonicalEnd) : hash53(String(cell.number))) >>> 0;
  return (Number.isNaN(cell.textHash) || hasCapital(bytes, from, to) ? hash53AsciiLower(bytes, from, to) : cell.textHash) >>> 0;
}

/** The trimmed text of the ASCII cell ColumnAccumulator.addAscii has just read (asciiCell); null when missing. */
export function readAsciiText(bytes: Uint8Array): string | null {
  return asciiCell.kind === MISSING_KIND ? null : asciiText(bytes, asciiCell.start, asciiCell.end);
}

class ColumnSketcher implements CellObserver {
  private readonly bottom = new BottomK(SKETCH_K);
  private readonly numbers: NumberReservoir | PriorityReservoir;

  readonly privacy: ColumnPrivacyKind;

  constructor(
    readonly sourceIndex: number,
    /** Position among the shown (not excluded) columns, as in META's STATS. */
    readonly shownIndex: number,
    readonly header: string,
    private readonly policy: ColumnPolicy,
    blocks = false,
  ) {
    this.privacy = policy.hash ? 'hashed' : policy.format === 'mask' ? 'masked' : 'plain';
    this.numbers = blocks ? new PriorityReservoir(SKETCH_RESERVOIR) : new NumberReservoir();
  }

  startBlock(index: number): void {
    if (this.numbers instanceof PriorityReservoir) this.numbers.startBlock(index);
  }

  state(): ColumnSketchState {
    return { bottom: this.bottom.values(), numbers: this.numbers instanceof PriorityReservoir ? this.numbers.state() : null };
  }

  /** Takes in what another sketcher of the same column saw (block mode: the union does not depend on the order). */
  mergeFrom(state: ColumnSketchState): void {
    for (const h of state.bottom) this.bottom.add(h);
    if (state.numbers && this.numbers instanceof PriorityReservoir) this.numbers.mergeFrom(state.numbers);
  }

  add(value: CellValue): void {
    if (this.privacy === 'masked') return;
    const text = normalisedValue(value, this.policy);
    if (text === null) return;
    this.bottom.add(valueHash(text));
    if (this.privacy !== 'plain') return;
    const x = typeof value === 'number' ? value : Number(text);
    if (text !== '' && Number.isFinite(x)) this.numbers.add(x);
  }

  /**
   * What add() does with the cell's text, from what the column's statistics found in its bytes
   * (asciiCell). A value the column had seen before was offered to the bottom-k then; a new one is
   * hashed here (readAsciiValueHash).
   */
  addReadAscii(bytes: Uint8Array): void {
    const cell = asciiCell;
    if (this.privacy !== 'plain' || cell.kind === MISSING_KIND) return;
    // Numbers as classify() reads them without decimal commas.
    if (cell.kind <= FLT && !cell.decimalComma) {
      if (!cell.seenBefore) this.bottom.add(readAsciiValueHash(bytes));
      if (Number.isFinite(cell.number)) this.numbers.add(cell.number);
      return;
    }
    // A number written with a decimal comma is one value to the column but hashed as its text ("2,5" and "2,50" differ).
    if (!cell.seenBefore || cell.kind <= FLT) this.bottom.add(readAsciiValueHash(bytes));
    const x = otherNumberOfAscii(bytes, cell.start, cell.end);
    if (Number.isFinite(x)) this.numbers.add(x);
  }

  /**
   * Adds HISTOGRAM and QUARTILES to a plain numeric column's statistics (column-profile.ts), from
   * the numbers this sketch kept: META's Statistics tab draws them.
   */
  profile(stats: ColumnStats): void {
    const type = stats.DICT.type;
    if (this.privacy !== 'plain' || (type !== 'integer' && type !== 'float') || stats.MIN === null || stats.MAX === null) return;
    const { sorted, seen } = this.numbers.numbers();
    const profile = numericProfile(sorted, seen, stats.MIN, stats.MAX, type === 'integer');
    if (profile) Object.assign(stats, profile);
  }

  build(index: number, stats: ColumnStats): ColumnSketch {
    const type = stats.DICT.type;
    const numeric = this.privacy === 'plain' && (type === 'integer' || type === 'float') ? numericSketch(stats, this.numbers.numbers()) : null;
    return {
      index,
      header: this.header,
      privacy: this.privacy,
      type,
      count: stats.DICT.count,
      missing: stats.MISSING_VALS,
      distinct: stats.DICT.distinct,
      minhash: this.privacy === 'masked' ? [] : this.bottom.values(),
      numeric,
      words: this.privacy === 'plain' ? stats.WORDSET : [],
      ...(this.policy.clk && { encoding: 'clk' as const }),
      ...(this.policy.hash && this.policy.linkageKeyId && { linkageKeyId: this.policy.linkageKeyId }),
    };
  }
}

class TableSketcher implements TableObserver {
  constructor(
    private readonly name: string,
    private readonly columns: ColumnSketcher[],
    private readonly done: (table: TableSketch) => void,
  ) {}

  addRow(cells: ArrayLike<CellValue>): void {
    for (const column of this.columns) column.add(column.sourceIndex < cells.length ? cells[column.sourceIndex] : null);
  }

  cellObserver(sourceIndex: number): CellObserver | undefined {
    return this.columns.find((column) => column.sourceIndex === sourceIndex);
  }

  startBlock(index: number): void {
    for (const column of this.columns) column.startBlock(index);
  }

  blockState(): TableSketchState {
    return this.columns.map((column) => column.state());
  }

  mergeFrom(state: TableSketchState): void {
    this.columns.forEach((column, i) => column.mergeFrom(state[i]));
  }

  finish(table: FileTable): void {
    const columns: ColumnSketch[] = [];
    for (const sketcher of this.columns) {
      const index = sketcher.shownIndex;
      const stats = table.STATS[String(index)];
      if (stats && table.HEADERS[index] === sketcher.header) {
        sketcher.profile(stats);
        columns.push(sketcher.build(index, stats));
      }
    }
    this.done({ name: this.name, totalRows: table.TOTAL_ROWS, columns });
  }
}

/**
 * Collects the sketches of one file's tables (pass it as ExtractionOptions.sketches). At most
 * MAX_SKETCHED_COLUMNS columns are sketched per file; columns past that are left out.
 */
export class SketchCollector implements TableObserverFactory {
  readonly tables: TableSketch[] = [];

  /**
   * `budget`: columns still to sketch (a worker thread continues its caller's). `blocks`: the rows
   * come in blocks read by several threads, and the sketchers' states are merged (csv-threads.ts).
   */
  constructor(
    private budget = MAX_SKETCHED_COLUMNS,
    private readonly blocks = false,
  ) {}

  /** Columns still to sketch. */
  get budgetLeft(): number {
    return this.budget;
  }

  openTable(name: string, headers: string[], policies: ColumnPolicy[]): TableObserver | undefined {
    if (this.budget <= 0) return undefined;
    // Shown columns are the non-excluded ones in order; the budget cuts the tail.
    const columns: ColumnSketcher[] = [];
    let shown = 0;
    headers.forEach((header, i) => {
      if (policies[i]?.format === 'exclude' || shown >= this.budget) return;
      columns.push(new ColumnSketcher(i, shown, header, policies[i], this.blocks));
      shown++;
    });
    this.budget -= shown;
    return new TableSketcher(name, columns, (table) => this.tables.push(table));
  }

  /** A table sketched by other collectors (worker threads), with the budget they left. */
  adopt(table: TableSketch, budgetLeft: number): void {
    this.tables.push(table);
    this.budget = budgetLeft;
  }
}
