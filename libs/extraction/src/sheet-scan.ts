// What the spreadsheet extractor (spreadsheet.ts) reads from a workbook reader, xlsx-reader.ts or
// xls-reader.ts: sheets scanned row by row, their cells as SheetJS's dense sheets hold them. A reader
// that meets a form it does not read as SheetJS does throws Declined, and SheetJS reads the workbook.

/** The reader leaves the workbook to SheetJS. */
export class Declined extends Error {}

/** A cell as SheetJS's dense sheets hold it: type, value and (lazily, see displayOf) its display text. */
export interface SheetCell {
  t: 'n' | 's' | 'b' | 'e' | 'd';
  v: string | number | boolean | Date | undefined;
  w?: string;
}

export type SheetRow = Array<SheetCell | undefined>;

/** A row of a sheet: its 0-based index, its cells (null once only lengths are asked for) and its length. */
export interface ScannedRow {
  index: number;
  cells: SheetRow | null;
  length: number;
}

/** One reading of a sheet's rows, in order. */
export interface SheetScan extends AsyncIterable<ScannedRow> {
  /** Columns of the range the sheet declares (0 when none); known once the first row came. */
  readonly declaredColumns: number;
  /** After the last row: columns of SheetJS's `!ref` (declared, else guessed from the cells; cut at the row limit). */
  readonly refColumns: number;
  /** After the last row: the row limit cut the range (SheetJS's `!fullref`). */
  readonly clipped: boolean;
  /** From now on rows come without their cells (their lengths still count). */
  lengthsOnly(): void;
}

export interface WorkbookSheet {
  name: string;
  scan(): SheetScan;
}
