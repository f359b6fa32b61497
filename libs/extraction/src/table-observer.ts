// What sees a table's rows as extraction reads them (TableBuilder calls it): the hook column sketches
// (sketch.ts) are gathered through, in one thread or, in blocks, across threads (csv-threads.ts).
import type { CellValue } from './column';
import type { ColumnPolicy } from './private-columns';
import type { FileTable } from './types';

export type { ColumnPolicy } from './private-columns';
export type { CellValue } from './column';

/** Sees each data row of a table as extraction reads it (the hook TableBuilder calls). */
export interface TableObserver {
  addRow(cells: ArrayLike<CellValue>): void;
  /**
   * Optional, instead of addRow: what sees the cells of one column (by source position), one at a
   * time, as its statistics read them (the CSV byte reader, TableBuilder.addByteRow); undefined
   * for a column it does not look at.
   */
  cellObserver?(sourceIndex: number): CellObserver | undefined;
  /** Block mode (csv-threads.ts): the blocks' rows come next, numbered `index` in the file. */
  startBlock?(index: number): void;
  /** Block mode: what was observed so far, as plain data for the thread that merges. */
  blockState?(): TableSketchState;
  /** Block mode: takes in another thread's blockState() of the same table. */
  mergeFrom?(state: TableSketchState): void;
  /** The table is complete; `table` is what META shows of it. */
  finish(table: FileTable): void;
}

/** The sketched columns' states of a table, in its column order (block mode). */
export type TableSketchState = ColumnSketchState[];

/** Sees one column's cells (TableObserver.cellObserver). */
export interface CellObserver {
  /** A cell as its text (or typed value, or null when missing). */
  add(value: CellValue): void;
  /**
   * An ASCII cell of a plain column, given as bytes, that ColumnAccumulator.addAscii has just read:
   * asciiCell holds what it found (trimmed range, kind, number, text hash).
   */
  addReadAscii(bytes: Uint8Array): void;
}

/** Hands a TableObserver to each table of one file, e.g. a SketchCollector. */
export interface TableObserverFactory {
  openTable(name: string, headers: string[], policies: ColumnPolicy[]): TableObserver | undefined;
}

/** A column sketch's reservoir of numbers (sketch.ts, PriorityReservoir) as plain data. */
export interface ReservoirState {
  seen: number;
  values: Float64Array;
  priorities: Float64Array;
}

/** A column sketcher's values as plain data (block mode). */
export interface ColumnSketchState {
  bottom: number[];
  numbers: ReservoirState | null;
}
