// .xls and .xlsx: every sheet becomes a table. The file is read into memory (refused above
// maxSpreadsheetBytes; an .xlsx container is checked against zip bombs first). An .xlsx is then read
// by xlsx-reader.ts, which inflates and scans one sheet at a time, row by row, into the table; a BIFF8
// .xls by xls-reader.ts, which walks each sheet's records row by row from the compound file in memory.
// SheetJS (@e965/xlsx) parses, whole in memory, what those readers decline (and HTML or XML under .xls).
// They give the same cells as SheetJS, so the same META (xlsx-reader.spec.ts, xls-reader.spec.ts).
import type { Readable } from 'node:stream';
import type * as XLSX from '@e965/xlsx';
import type { CellValue } from './column';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError, ExtractionLimitError } from './errors';
import { readInMemory } from './io';
import { headerName, TableBuilder } from './table';
import type { FileTable, SheetTable } from './types';
import { keywordsOf, TopWords } from './words';
import { isCompoundFile } from './compound-file';
import type { ScannedRow, SheetCell, SheetScan, WorkbookSheet } from './sheet-scan';
import { XlsWorkbook } from './xls-reader';
import { XlsxWorkbook } from './xlsx-reader';
import { checkZipDocument } from './zip';

const HEADER_SCAN_ROWS = 20;
/** XML inflates about ten times; more than this many times the size limit is refused. */
const EXPANSION = 10;

/** A cell of either reader: SheetJS's CellObject or xlsx-reader's SheetCell. */
type Cell = Pick<XLSX.CellObject, 't' | 'v' | 'w'> | SheetCell;
type Row = Array<Cell | null | undefined> | undefined | null;

function filled(cell: Cell | null | undefined): cell is Cell {
  return !!cell && cell.t !== 'z' && cell.t !== 'e' && cell.v !== undefined && cell.v !== null && !(cell.t === 's' && String(cell.v).trim() === '');
}

function filledCount(row: Row): number {
  let n = 0;
  for (const cell of row ?? []) if (filled(cell)) n++;
  return n;
}

/** A data row: at least half of its filled cells are numbers, dates or booleans. */
function isDataRow(row: Row): boolean {
  const cells = (row ?? []).filter(filled);
  const typed = cells.filter((c) => c.t === 'n' || c.t === 'd' || c.t === 'b').length;
  return cells.length > 0 && typed * 2 >= cells.length;
}

/**
 * The header row: the last all-text row before the first data row among the first rows (title rows
 * such as "Back to Contents" come before it); with no data row, the widest of the first rows.
 * Returns null when the data starts at once (no header).
 */
export function findHeaderRow(rows: Row[]): { header: number | null; firstData: number } {
  const nonEmpty: number[] = [];
  for (let r = 0; r < rows.length && nonEmpty.length < HEADER_SCAN_ROWS; r++) if (filledCount(rows[r]) > 0) nonEmpty.push(r);
  if (nonEmpty.length === 0) return { header: null, firstData: rows.length };
  const dataAt = nonEmpty.findIndex((r) => isDataRow(rows[r]));
  if (dataAt === -1) {
    let widest = nonEmpty[0];
    for (const r of nonEmpty) if (filledCount(rows[r]) > filledCount(rows[widest])) widest = r;
    return { header: widest, firstData: widest + 1 };
  }
  if (dataAt === 0) return { header: null, firstData: nonEmpty[0] };
  return { header: nonEmpty[dataAt - 1], firstData: nonEmpty[dataAt] };
}

/** Columns of the sheet's declared range ("A1:AD454" has 30): trailing empty columns count too. */
function rangeWidth(ref: unknown): number {
  const match = typeof ref === 'string' ? /:?([A-Z]+)\d+$/.exec(ref) : null;
  if (!match) return 0;
  let n = 0;
  for (const ch of match[1]) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function cellValue(cell: Cell | null | undefined): CellValue {
  if (!filled(cell)) return null;
  return cell.v as CellValue;
}

function looksLikeSpreadsheet(buffer: Buffer, kind: 'xls' | 'xlsx'): boolean {
  const zip = buffer[0] === 0x50 && buffer[1] === 0x4b && buffer[2] === 0x03 && buffer[3] === 0x04;
  if (kind === 'xlsx') return zip;
  const cfb = isCompoundFile(buffer);
  // Old exporters write HTML or SpreadsheetML XML under .xls; SheetJS reads those too.
  const markup = /^\s*</.test(
    buffer
      .subarray(0, 64)
      .toString('latin1')
      .replace(/^\uFEFF|^ï»¿/, ''),
  );
  return zip || cfb || markup;
}

/** A sheet of SheetJS's workbook, read as xlsx-reader's sheets are. */
class ParsedSheetScan implements SheetScan {
  readonly declaredColumns: number;
  readonly refColumns: number;
  readonly clipped: boolean;

  constructor(private readonly sheet: XLSX.WorkSheet | undefined) {
    this.declaredColumns = this.refColumns = rangeWidth(sheet?.['!ref']);
    this.clipped = !!sheet?.['!fullref'] && sheet['!fullref'] !== sheet['!ref'];
  }

  lengthsOnly(): void {}

  async *[Symbol.asyncIterator](): AsyncIterator<ScannedRow> {
    const rows = (this.sheet?.['!data'] as SheetCell[][] | undefined) ?? [];
    for (let index = 0; index < rows.length; index++) if (rows[index]) yield { index, cells: rows[index], length: rows[index].length };
  }
}

interface SheetSource {
  name: string;
  scan(): SheetScan;
  displayOf(cell: Cell): string | undefined;
}

interface DescribedSheet {
  sheet: SheetTable;
  table: TableBuilder;
  built: FileTable;
  partial: boolean;
}

/**
 * Describes one sheet from its rows in order: the header is found among the first rows, then every
 * row goes into the table as it comes. The table's width (its column count, which names columns and
 * shares the distinct-value budget) must be known first: `width` when measured, else guessed from the
 * sheet's declared range and first rows. A guess the rows prove wrong returns the right width instead
 * (the caller reads the sheet again); `measure` returns the width without describing anything.
 */
async function describeSheet(source: SheetSource, ctx: ExtractorContext, plan: { width?: number; measure?: boolean }): Promise<DescribedSheet | number> {
  const { limits } = ctx;
  const scan = source.scan();
  const rows = scan[Symbol.asyncIterator]();
  const head: Row[] = [];
  const headRows: ScannedRow[] = [];
  for (let nonEmpty = 0; nonEmpty < HEADER_SCAN_ROWS;) {
    const next = await rows.next();
    if (next.done) break;
    head[next.value.index] = next.value.cells;
    headRows.push(next.value);
    if (filledCount(next.value.cells) > 0) nonEmpty++;
  }
  const { header, firstData } = findHeaderRow(head);
  const headerLength = header === null ? 0 : (head[header]?.length ?? 0);
  let longest = 0;
  for (const row of headRows) if (row.index >= firstData) longest = Math.max(longest, row.length);
  const widthAtEnd = (): number => (header === null ? longest : Math.max(headerLength, scan.refColumns, longest));
  if (plan.measure) {
    scan.lengthsOnly();
    for (let next = await rows.next(); !next.done; next = await rows.next()) longest = Math.max(longest, next.value.length);
    return widthAtEnd();
  }

  const width = plan.width ?? Math.max(header === null ? 0 : headerLength, scan.declaredColumns, longest);
  const headerCells = header === null ? [] : (head[header] ?? []);
  const headers = Array.from({ length: width }, (_, i) => {
    const cell = headerCells[i];
    return header === null ? `Column ${i + 1}` : headerName(cell ? (source.displayOf(cell) ?? cell.v) : undefined, i);
  });
  const table = new TableBuilder(headers, { option: ctx.option, limits, privacy: ctx.privacy, observers: ctx.observers, tableName: source.name });
  let limitHit = false;
  const add = ({ index, cells, length }: ScannedRow): void => {
    if (index < firstData) return;
    longest = Math.max(longest, length);
    if (limitHit || !cells || filledCount(cells) === 0) return;
    if (limits.maxRowsScanned !== undefined && table.rowCount >= limits.maxRowsScanned) {
      limitHit = true;
      scan.lengthsOnly(); // the rest of the sheet only counts for the width
      return;
    }
    // Display texts show in the first rows' FORMATTED_VALS and in samples only: formatted only for those.
    const displayed = ctx.option === 'samples' || table.rowCount < 5;
    table.addRow(cells.map(cellValue), index + 1, displayed ? cells.map((c) => (filled(c) ? source.displayOf(c) : undefined)) : undefined);
  };
  for (const row of headRows) add(row);
  for (let next = await rows.next(); !next.done; next = await rows.next()) add(next.value);
  if (widthAtEnd() !== width) {
    if (plan.width !== undefined) throw new Error(`Sheet "${source.name}": ${widthAtEnd()} columns read again, ${width} measured`);
    return widthAtEnd();
  }
  const built = table.build();
  const privateColumns = table.shareFormats();
  const sheet = {
    NAME: source.name,
    HEADER_ROW: header === null ? null : header + 1,
    ...built,
    ...(privateColumns && { SHARE_FORMATS: privateColumns.SHARE_FORMATS }),
  };
  return { sheet, table, built, partial: limitHit || scan.clipped };
}

/**
 * Describes every sheet. With column sketches (observers, which count every table they see), every
 * width is measured before the first table opens, so that no table is opened twice and a workbook
 * the xlsx reader declines has opened none.
 */
async function describeWorkbook(sources: SheetSource[], ctx: ExtractorContext, bytesRead: number): Promise<Extracted> {
  const { limits } = ctx;
  const widths: Array<number | undefined> = [];
  if (ctx.observers) for (const source of sources) widths.push((await describeSheet(source, ctx, { measure: true })) as number);
  const sheets: SheetTable[] = [];
  const keywords = new TopWords(limits.maxWords * 4);
  const errors: string[] = [];
  const hashed = new Set<string>();
  let partial = false;
  let main = -1;
  let mainCells = -1;
  for (const [i, source] of sources.entries()) {
    let described = await describeSheet(source, ctx, { width: widths[i] });
    if (typeof described === 'number') described = await describeSheet(source, ctx, { width: described });
    if (typeof described === 'number') throw new Error(`Sheet "${source.name}": no stable width`);
    const { sheet, table, built } = described;
    if (described.partial) {
      partial = true;
      errors.push(`Sheet "${source.name}": stopped after ${table.rowCount} data rows (maxRowsScanned)`);
    }
    errors.push(...table.errors.list().map((e) => `Sheet "${source.name}": ${e}`));
    table.addWordsTo(keywords);
    const cellsFilled = Object.values(built.STATS).reduce((n, s) => n + s.DICT.count, 0);
    if (cellsFilled > mainCells) [main, mainCells] = [sheets.length, cellsFilled];
    table.shareFormats()?.ENCRYPTED_COLS.forEach((h) => hashed.add(h));
    sheets.push(sheet);
  }
  const { NAME: _name, HEADER_ROW: _row, SHARE_FORMATS: mainFormats, ...mainTable } = sheets[main];
  return {
    STATUS: partial ? 'partial' : 'complete',
    FILE: mainTable,
    SHEETS: sheets,
    KEYWORDS: keywordsOf(keywords, limits.maxKeywords),
    SAMPLES: ctx.option === 'samples' ? 'real' : 'synthetic',
    ...(ctx.privacy && { ENCRYPTED_COLS: [...hashed], SHARE_FORMATS: mainFormats ?? [] }),
    ERRORS: errors,
    bytesRead,
  };
}

/** A workbook opened by one of the streaming readers. */
interface StreamedBook {
  sheets: WorkbookSheet[];
  displayOf(cell: SheetCell): string | undefined;
  close?(): void;
}

/**
 * The workbook through xlsx-reader.ts or xls-reader.ts; null when the reader declines the workbook (or
 * fails on it): SheetJS reads it then. `strict` (tests) throws instead.
 */
async function extractStreamed(open: () => Promise<StreamedBook>, buffer: Buffer, ctx: ExtractorContext, strict: boolean): Promise<Extracted | null> {
  let book: StreamedBook;
  try {
    book = await open();
  } catch (error) {
    if (strict) throw error;
    return null;
  }
  try {
    const display = (cell: Cell): string | undefined => book.displayOf(cell as SheetCell);
    return await describeWorkbook(
      book.sheets.map((sheet) => ({ name: sheet.name, scan: () => sheet.scan(), displayOf: display })),
      ctx,
      buffer.length,
    );
  } catch (error) {
    if (strict || error instanceof ExtractionLimitError) throw error;
    return null;
  } finally {
    book.close?.();
  }
}

/** Which reader reads a workbook: 'auto' (the xlsx or xls reader, else SheetJS); tests pin one. */
export type WorkbookReader = 'auto' | 'sheetjs' | 'xlsx-reader' | 'xls-reader';

export async function extractSpreadsheet(stream: Readable, ctx: ExtractorContext, kind: 'xls' | 'xlsx', reader: WorkbookReader = 'auto'): Promise<Extracted> {
  const { limits } = ctx;
  const buffer = await readInMemory(stream, ctx.size, limits.maxSpreadsheetBytes, 'maxSpreadsheetBytes', 'spreadsheets');
  if (!looksLikeSpreadsheet(buffer, kind)) throw new CorruptFileError(`Not an ${kind === 'xlsx' ? 'Office Open XML (.xlsx)' : 'Excel (.xls)'} workbook`);
  if (buffer[0] === 0x50) await checkZipDocument(buffer, limits, EXPANSION * limits.maxSpreadsheetBytes);

  const sheetRows = limits.maxRowsScanned !== undefined ? limits.maxRowsScanned + HEADER_SCAN_ROWS : 0;
  if (buffer[0] === 0x50 && (reader === 'auto' || reader === 'xlsx-reader')) {
    const { SSF } = await import('@e965/xlsx'); // its number formats give the display texts
    const streamed = await extractStreamed(() => XlsxWorkbook.open(buffer, sheetRows, SSF), buffer, ctx, reader === 'xlsx-reader');
    if (streamed) return streamed;
  }
  if (isCompoundFile(buffer) && (reader === 'auto' || reader === 'xls-reader')) {
    const { SSF } = await import('@e965/xlsx');
    const streamed = await extractStreamed(async () => XlsWorkbook.open(buffer, sheetRows, SSF), buffer, ctx, reader === 'xls-reader');
    if (streamed) return streamed;
  }
  if (reader === 'xlsx-reader') throw new Error('not a zip: the xlsx reader reads only .xlsx');
  if (reader === 'xls-reader') throw new Error('not a compound file: the xls reader reads only BIFF8 .xls');
  let workbook: XLSX.WorkBook;
  try {
    const { read } = await import('@e965/xlsx'); // loaded on first use: a large module
    workbook = read(buffer, { type: 'buffer', dense: true, cellDates: true, cellHTML: false, cellFormula: false, sheetRows });
  } catch (error) {
    throw new CorruptFileError(`Damaged workbook: ${(error as Error).message}`, { cause: error });
  }
  if (!workbook.SheetNames?.length) throw new CorruptFileError('The workbook has no sheets');
  const display = (cell: Cell): string | undefined => cell.w;
  return describeWorkbook(
    workbook.SheetNames.map((name) => ({ name, scan: () => new ParsedSheetScan(workbook.Sheets[name]), displayOf: display })),
    ctx,
    buffer.length,
  );
}
