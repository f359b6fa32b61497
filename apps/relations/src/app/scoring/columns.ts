import type { ColumnSketchPayload } from '@dc/contracts';
import type { SketchedRecord } from '../records/related-record';

/** One column of a record, wherever it is (file, table), with its sketch. */
export interface RecordColumn {
  recordId: string;
  fileId: string;
  storageKey: string | null;
  fileName: string;
  tableIndex: number;
  tableName: string;
  totalRows: number;
  sketch: ColumnSketchPayload;
  /** Its values may take part in figures (not masked, and not withheld from this caller: scoring/value-sight.ts). */
  values: boolean;
}

/** Every sketched column of a record, file by file, table by table. */
export function columnsOf(record: SketchedRecord): RecordColumn[] {
  return record.files.flatMap((file) =>
    file.tables.flatMap((table, tableIndex) =>
      table.columns.map((sketch) => ({
        recordId: record.record.id,
        fileId: file.fileId,
        storageKey: file.storageKey,
        fileName: file.fileName,
        tableIndex,
        tableName: table.name,
        totalRows: table.totalRows,
        sketch,
        values: sketch.privacy === 'hashed' || (sketch.privacy === 'plain' && !record.valuesWithheld),
      })),
    ),
  );
}

/** Rows of a record: its tables' rows added up (the snapshot's total when nothing was sketched). */
export function totalRowsOf(record: SketchedRecord): number {
  const sketched = record.files.flatMap((f) => f.tables).reduce((sum, t) => sum + t.totalRows, 0);
  return sketched || record.record.totalRows || 0;
}

const NUMERIC = new Set(['integer', 'float']);
export const isNumeric = (column: ColumnSketchPayload) => NUMERIC.has(column.type);

/** A plain column whose values are withheld from the caller (scoring/value-sight.ts). */
export const valuesWithheld = (column: RecordColumn) => column.sketch.privacy === 'plain' && !column.values;

/** Both columns' values may take part in a figure about the pair. */
export const valuesComparable = (a: RecordColumn, b: RecordColumn) => a.values && b.values && a.sketch.privacy === b.sketch.privacy;

/** 1 for the same type, 0.5 for integer with float, 0 otherwise (empty columns match nothing). */
export function typeCompatibility(a: ColumnSketchPayload, b: ColumnSketchPayload): number {
  if (a.type === 'empty' || b.type === 'empty') return 0;
  if (a.type === b.type) return 1;
  return isNumeric(a) && isNumeric(b) ? 0.5 : 0;
}
