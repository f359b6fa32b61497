// The row-hash index of a stored file: for each linkable column, one 32-bit value hash per row
// (0 = missing), stored as its own object of little-endian uint32s. Rows link on these hashes, so no
// value is kept: hashed private columns are indexed from their keyed hashes, masked ones not at all.
// A fuzzy hashed column (CLK) also keeps each row's filter (128 bytes), in an object of its own.
import type { TableSketchPayload } from '@dc/contracts';

export const ROW_INDEX_PREFIX = 'relations/row-index/';

/** Where a build's objects live: everything under it is deleted with the build. */
export const rowIndexPrefix = (fileId: string, buildId: string) => `${ROW_INDEX_PREFIX}${fileId}/${buildId}/`;

export const rowIndexKey = (fileId: string, buildId: string, table: number, column: number) => `${rowIndexPrefix(fileId, buildId)}t${table}-c${column}`;

/** Bytes of one row's CLK (a 1024-bit filter). */
export const CLK_BYTES = 128;

/** One indexed column of a build. */
export interface IndexedColumn {
  table: number;
  /** The column's index in its table's sketch (position among the shown headers). */
  column: number;
  header: string;
  key: string;
  rows: number;
  /** CLK columns: the object of the rows' filters (CLK_BYTES per row, zeros when missing). */
  clkKey?: string;
}

export interface RowIndexBuild {
  buildId: string;
  fileId: string;
  columns: IndexedColumn[];
}

/** A column to index: where it is in the file's sketch and whether it is read through the column key. */
export interface PlannedColumn {
  table: number;
  tableName: string;
  column: number;
  header: string;
  hashed: boolean;
  /** A fuzzy hashed column: its cells are CLKs. */
  clk: boolean;
}

/**
 * The columns worth indexing: those rows can link on (plain or hashed, not empty). Masked columns
 * are never read.
 */
export function plannedColumns(tables: TableSketchPayload[]): PlannedColumn[] {
  return tables.flatMap((table, t) =>
    table.columns
      .filter((c) => c.type !== 'empty' && (c.privacy === 'plain' || c.privacy === 'hashed'))
      .map((c) => ({
        table: t,
        tableName: table.name,
        column: c.index,
        header: c.header,
        hashed: c.privacy === 'hashed',
        clk: c.privacy === 'hashed' && c.encoding === 'clk',
      })),
  );
}

/**
 * Source positions of the planned columns of one table among the headers extraction reads, matched
 * by header name (the k-th column of a repeated header to its k-th occurrence); -1 when not found.
 */
export function sourcePositions(planned: PlannedColumn[], headers: string[]): number[] {
  const used = new Set<number>();
  return planned.map((c) => {
    const position = headers.findIndex((header, i) => header === c.header && !used.has(i));
    if (position >= 0) used.add(position);
    return position;
  });
}

/** The value hashes of a column object (a copy, so the array is aligned whatever the buffer). */
export function decodeColumn(bytes: Buffer): Uint32Array {
  const hashes = new Uint32Array(Math.floor(bytes.length / 4));
  new Uint8Array(hashes.buffer).set(bytes.subarray(0, hashes.length * 4));
  return hashes;
}
