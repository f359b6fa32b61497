// A table being described: headers, one accumulator per column, row count and table-level errors.
import { type CellValue, ColumnAccumulator, isMissingText } from './column';
import type { ColumnContext } from './column-figures';
import { type ColumnBlock, ColumnMerger } from './column-merger';
import type { DistinctState } from './distinct';
import type { ByteCells } from './csv-bytes';
import { type ColumnPolicy, type ColumnPrivacy, PLAIN } from './private-columns';
import type { CellObserver, TableObserver, TableObserverFactory, TableSketchState } from './table-observer';
import type { ColumnStats, ExtractionLimits, ExtractOption, FileTable, ShareFormatEntry } from './types';
import { detach, isMeaningful, TopWords, words } from './words';

export interface TableOptions {
  option: ExtractOption;
  limits: ExtractionLimits;
  decimalComma?: boolean;
  /** Columns to hash, mask or exclude, picked by position or header name. */
  privacy?: ColumnPrivacy;
  /** Sees every row too (column sketches for the relations service); named by tableName. */
  observers?: TableObserverFactory;
  tableName?: string;
}

/** What build() needs of a column: its statistics and its words (for KEYWORDS). */
export interface DescribedColumn {
  stats(): ColumnStats;
  wordCounts(): Array<[string, number]>;
}

/** Bounded list of messages: keeps the first maxErrors and counts the rest. */
export class ErrorList {
  private readonly messages: string[] = [];
  private dropped = 0;

  constructor(private readonly max: number) {}

  add(message: string): void {
    if (this.messages.length < this.max) this.messages.push(message);
    else this.dropped++;
  }

  get length(): number {
    return this.messages.length + this.dropped;
  }

  list(): string[] {
    return this.dropped ? [...this.messages, `… and ${this.dropped} more`] : [...this.messages];
  }
}

/** Header cell to a name: trimmed, '#' of commented headers dropped, blank ones named by position. */
export function headerName(raw: unknown, index: number): string {
  const text =
    raw === null || raw === undefined
      ? ''
      : String(raw)
          .replace(/^\uFEFF/, '')
          .trim();
  const name = index === 0 ? text.replace(/^#\s*/, '') : text;
  return name === '' ? `Column ${index + 1}` : detach(name);
}

export class TableBuilder {
  /** The source's headers (up to maxColumns); excluded columns are among them but not in build(). */
  readonly headers: string[];
  private readonly policies: ColumnPolicy[];
  /** null for an excluded column: its values are not even looked at. */
  private readonly columns: Array<ColumnAccumulator | null>;
  private readonly columnContext: ColumnContext;
  /** What build() shows of each column (its accumulator, or the merged blocks' figures): null for an excluded one. */
  private readonly described: Array<DescribedColumn | null>;
  private readonly observer?: TableObserver;
  /** The observer's cell observers by column, when it has them (addByteRow then feeds them cell by cell). */
  private readonly cellObservers?: Array<CellObserver | undefined>;
  /** Described columns whose ASCII cells addByteRow hands over as bytes, and the others. */
  private readonly byBytes: number[] = [];
  private readonly byText: number[] = [];
  private rows = 0;
  private longRows = 0;
  private firstLongRow = 0;

  constructor(
    headers: string[],
    private readonly options: TableOptions,
    readonly errors: ErrorList = new ErrorList(options.limits.maxErrors),
  ) {
    const { limits } = options;
    if (headers.length > limits.maxColumns) {
      errors.add(`${headers.length} columns: only the first ${limits.maxColumns} are described (maxColumns)`);
    }
    this.headers = headers.slice(0, limits.maxColumns);
    const ctx = {
      option: options.option,
      limits,
      decimalComma: options.decimalComma ?? false,
      distinctCap: Math.max(1000, Math.floor(limits.maxDistinctTracked / Math.max(1, this.headers.length))),
    };
    this.columnContext = ctx;
    this.policies = this.headers.map((header, i) => options.privacy?.policyFor(header, i) ?? PLAIN);
    this.columns = this.policies.map((policy) => (policy.format === 'exclude' ? null : new ColumnAccumulator(ctx, policy)));
    this.described = this.policies.map((_, i) => this.columns[i]);
    this.columns.forEach((column, i) => column && (column.readsBytes ? this.byBytes : this.byText).push(i));
    this.observer = options.observers?.openTable(options.tableName ?? '', this.headers, this.policies);
    if (this.observer?.cellObserver) {
      const observer = this.observer;
      this.cellObservers = this.headers.map((_, i) => observer.cellObserver?.(i));
    }
  }

  get rowCount(): number {
    return this.rows;
  }

  /** Adds a data row; `rowNumber` (1-based, in the source) names it in errors. */
  addRow(cells: ArrayLike<CellValue>, rowNumber: number, displays?: ArrayLike<string | undefined>): void {
    this.rows++;
    const width = this.columns.length;
    for (let i = 0; i < width; i++) this.columns[i]?.add(i < cells.length ? cells[i] : null, displays?.[i]);
    this.observer?.addRow(cells);
    if (cells.length > width && this.headers.length > 0) {
      let extra = false;
      for (let i = width; i < cells.length && !extra; i++) {
        const cell = cells[i];
        extra = cell !== null && cell !== undefined && !(typeof cell === 'string' && isMissingText(cell.trim()));
      }
      if (extra) {
        if (this.longRows === 0) this.firstLongRow = rowNumber;
        this.longRows++;
      }
    }
  }

  /**
   * Adds record r of a CSV read as bytes (csv-bytes.ts): as addRow(cells.row(r)) would, but an
   * ASCII cell of a plain column goes to its accumulator as bytes, never made into a string.
   */
  addByteRow(cells: ByteCells, r: number, rowNumber: number): void {
    const { records, bytes } = cells;
    const first = records.firstCell[r];
    const count = records.firstCell[r + 1] - first;
    const width = this.columns.length;
    const watchers = this.cellObservers;
    if (count > width || (this.observer && !watchers)) {
      this.addRow(cells.row(r), rowNumber);
      return;
    }
    this.rows++;
    const { byBytes } = this;
    for (let k = 0; k < byBytes.length; k++) {
      const i = byBytes[k];
      const column = this.columns[i] as ColumnAccumulator;
      const cell = first + i;
      if (i >= count) {
        column.add(null);
        watchers?.[i]?.add(null);
      } else if (records.cellFlags[cell] === 0) {
        column.addAscii(bytes, records.cellStart[cell], records.cellEnd[cell]);
        watchers?.[i]?.addReadAscii(bytes);
      } else {
        const text = cells.text(cell);
        column.add(text);
        watchers?.[i]?.add(text);
      }
    }
    for (const i of this.byText) {
      const text = i < count ? cells.text(first + i) : null;
      this.columns[i]?.add(text);
      watchers?.[i]?.add(text);
    }
  }

  /**
   * Block mode (csv-threads.ts): what the rows added since the last call gathered, as plain data,
   * and a fresh start for the next block (distinct values and sketches go on across blocks).
   * Row numbers given to addRow count from the block's start.
   */
  takeBlock(): TableBlock {
    const columns = this.columns.map((column, i) => {
      if (!column) return null;
      const { block, next } = column.finishBlock();
      this.columns[i] = next;
      if (this.described[i]) this.described[i] = next;
      return block;
    });
    const block = { rows: this.rows, longRows: this.longRows, firstLongRow: this.firstLongRow, columns };
    this.rows = this.longRows = this.firstLongRow = 0;
    return block;
  }

  /** Block mode: the next rows are block `index` of the file (its sketches number their values by it). */
  startBlock(index: number): void {
    this.observer?.startBlock?.(index);
  }

  /** Block mode: the sketches' states over every block this builder read. */
  sketchState(): TableSketchState | undefined {
    return this.observer?.blockState?.();
  }

  /** Block mode: takes in another thread's sketch state of this table. */
  mergeSketches(state: TableSketchState): void {
    this.observer?.mergeFrom?.(state);
  }

  /** Block mode: the distinct values each column counted, over every block this builder read. */
  distinctStates(): Array<DistinctState | null> {
    return this.columns.map((column) => column?.distinctState() ?? null);
  }

  /** Block mode: a merger of this table's blocks (read here or elsewhere with the same headers and options). */
  merger(): TableMerger {
    return new TableMerger(this.policies.map((policy) => (policy.format === 'exclude' ? null : new ColumnMerger(this.columnContext, policy))));
  }

  /** Block mode: the table as merged from blocks; build() then describes it. */
  adoptMerged(merged: TableMerger): void {
    this.rows = merged.rows;
    this.longRows = merged.longRows;
    this.firstLongRow = merged.firstLongRow;
    merged.columns.forEach((column, i) => {
      if (this.described[i] !== null) this.described[i] = column;
    });
  }

  build(): FileTable {
    if (this.longRows > 0) {
      this.errors.add(
        `${this.longRows} rows have more values than the ${this.headers.length} headers (first: row ${this.firstLongRow}); the extra values are ignored`,
      );
    }
    const headers: string[] = [];
    const stats: FileTable['STATS'] = {};
    this.described.forEach((column, i) => {
      if (column === null) return;
      stats[String(headers.length)] = column.stats();
      headers.push(this.headers[i]);
    });
    const table = { HEADERS: headers, TOTAL_ROWS: this.rows, STATS: stats };
    this.observer?.finish(table);
    return table;
  }

  /** With private columns: the share format of each column build() shows, and the hashed headers. */
  shareFormats(): { SHARE_FORMATS: ShareFormatEntry[]; ENCRYPTED_COLS: string[] } | undefined {
    if (!this.options.privacy) return undefined;
    const formats: ShareFormatEntry[] = [];
    const hashed: string[] = [];
    this.policies.forEach((policy, i) => {
      if (policy.format === 'exclude') return;
      formats.push({ index: formats.length, format: policy.format, hash: policy.hash !== null });
      if (policy.hash) hashed.push(this.headers[i]);
    });
    return { SHARE_FORMATS: formats, ENCRYPTED_COLS: hashed };
  }

  /** Shown headers' and plain text columns' words, for the file's KEYWORDS. */
  addWordsTo(counter: TopWords): void {
    this.headers.forEach((header, i) => {
      if (!this.described[i]) return;
      for (const word of words(header)) if (isMeaningful(word)) counter.add(word);
    });
    for (const column of this.described) for (const [word, count] of column?.wordCounts() ?? []) counter.add(word, count);
  }
}

/** A TableBuilder's figures over one block of rows (TableBuilder.takeBlock). */
export interface TableBlock {
  rows: number;
  longRows: number;
  /** Counted from the block's first record (1). */
  firstLongRow: number;
  columns: Array<ColumnBlock | null>;
}

/** Merges a table's blocks in file order (TableBuilder.merger, adoptMerged). */
export class TableMerger {
  rows = 0;
  longRows = 0;
  firstLongRow = 0;
  /** Records before the next block (blank ones and the header included). */
  records = 0;

  constructor(readonly columns: Array<ColumnMerger | null>) {}

  /** The next block, which holds `records` records. */
  add(block: TableBlock, records: number): void {
    this.rows += block.rows;
    if (block.longRows > 0) {
      if (this.longRows === 0) this.firstLongRow = this.records + block.firstLongRow;
      this.longRows += block.longRows;
    }
    block.columns.forEach((column, i) => column && this.columns[i]?.add(column));
    this.records += records;
  }

  /** Distinct values a thread counted over its blocks. */
  addDistinct(states: Array<DistinctState | null>): void {
    states.forEach((state, i) => state && this.columns[i]?.addDistinct(state));
  }
}
