// .xls and .xlsx with SheetJS (@e965/xlsx): every sheet becomes a table. SheetJS parses a workbook
// in memory, so these files are not streamed: they are refused above maxSpreadsheetBytes, and an
// .xlsx container is checked against zip bombs before SheetJS inflates it.
import type { Readable } from 'node:stream';
import type * as XLSX from '@e965/xlsx';
import type { CellValue } from './column';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError, ExtractionLimitError } from './errors';
import { readAll } from './io';
import { headerName, TableBuilder } from './table';
import type { SheetTable } from './types';
import { keywordsOf, TopWords } from './words';
import { checkZipDocument } from './zip';

const HEADER_SCAN_ROWS = 20;
/** XML inflates about ten times; more than this many times the size limit is refused. */
const EXPANSION = 10;

type Row = Array<XLSX.CellObject | null | undefined> | undefined;

function filled(cell: XLSX.CellObject | null | undefined): cell is XLSX.CellObject {
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

function cellValue(cell: XLSX.CellObject | null | undefined): CellValue {
  if (!filled(cell)) return null;
  return cell.v as CellValue;
}

function looksLikeSpreadsheet(buffer: Buffer, kind: 'xls' | 'xlsx'): boolean {
  const zip = buffer[0] === 0x50 && buffer[1] === 0x4b && buffer[2] === 0x03 && buffer[3] === 0x04;
  if (kind === 'xlsx') return zip;
  const cfb = buffer.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  // Old exporters write HTML or SpreadsheetML XML under .xls; SheetJS reads those too.
  const markup = /^\s*</.test(buffer.subarray(0, 64).toString('latin1').replace(/^\uFEFF|^ï»¿/, ''));
  return zip || cfb || markup;
}

export async function extractSpreadsheet(stream: Readable, ctx: ExtractorContext, kind: 'xls' | 'xlsx'): Promise<Extracted> {
  const { limits } = ctx;
  if (ctx.size !== undefined && ctx.size > limits.maxSpreadsheetBytes) {
    stream.destroy();
    throw new ExtractionLimitError(`Spreadsheets are read in memory and this one is larger than ${limits.maxSpreadsheetBytes} bytes (maxSpreadsheetBytes): not extracted`);
  }
  const buffer = await readAll(stream, limits.maxSpreadsheetBytes, 'maxSpreadsheetBytes: spreadsheets are read in memory');
  if (buffer.length === 0) throw new CorruptFileError('The file is empty');
  if (!looksLikeSpreadsheet(buffer, kind)) throw new CorruptFileError(`Not an ${kind === 'xlsx' ? 'Office Open XML (.xlsx)' : 'Excel (.xls)'} workbook`);
  if (buffer[0] === 0x50) await checkZipDocument(buffer, limits, EXPANSION * limits.maxSpreadsheetBytes);

  let workbook: XLSX.WorkBook;
  try {
    const sheetRows = limits.maxRowsScanned !== undefined ? limits.maxRowsScanned + HEADER_SCAN_ROWS : 0;
    const { read } = await import('@e965/xlsx'); // loaded on first use: a large module
    workbook = read(buffer, { type: 'buffer', dense: true, cellDates: true, cellHTML: false, cellFormula: false, sheetRows });
  } catch (error) {
    throw new CorruptFileError(`Damaged workbook: ${(error as Error).message}`, { cause: error });
  }
  if (!workbook.SheetNames?.length) throw new CorruptFileError('The workbook has no sheets');

  const sheets: SheetTable[] = [];
  const keywords = new TopWords(limits.maxWords * 4);
  const errors: string[] = [];
  const hashed = new Set<string>();
  let partial = false;
  let main = -1;
  let mainCells = -1;
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    const rows: Row[] = (sheet?.['!data'] as Row[] | undefined) ?? [];
    const { header, firstData } = findHeaderRow(rows);
    let width = header === null ? 0 : Math.max(rows[header]?.length ?? 0, rangeWidth(sheet?.['!ref']));
    for (let r = firstData; r < rows.length; r++) width = Math.max(width, rows[r]?.length ?? 0);
    const headers = Array.from({ length: width }, (_, i) => (header === null ? `Column ${i + 1}` : headerName(rows[header]?.[i]?.w ?? rows[header]?.[i]?.v, i)));
    const table = new TableBuilder(headers, { option: ctx.option, limits, privacy: ctx.privacy, observers: ctx.observers, tableName: name });
    let limitHit = false;
    for (let r = firstData; r < rows.length; r++) {
      const row = rows[r];
      if (filledCount(row) === 0) continue;
      if (limits.maxRowsScanned !== undefined && table.rowCount >= limits.maxRowsScanned) {
        limitHit = true;
        break;
      }
      const cells = row ?? [];
      table.addRow(cells.map(cellValue), r + 1, cells.map((c) => (filled(c) ? c.w : undefined)));
    }
    if (limitHit || (sheet?.['!fullref'] && sheet['!fullref'] !== sheet['!ref'])) {
      partial = true;
      errors.push(`Sheet "${name}": stopped after ${table.rowCount} data rows (maxRowsScanned)`);
    }
    const built = table.build();
    errors.push(...table.errors.list().map((e) => `Sheet "${name}": ${e}`));
    table.addWordsTo(keywords);
    const cellsFilled = Object.values(built.STATS).reduce((n, s) => n + s.DICT.count, 0);
    if (cellsFilled > mainCells) [main, mainCells] = [sheets.length, cellsFilled];
    const privateColumns = table.shareFormats();
    privateColumns?.ENCRYPTED_COLS.forEach((h) => hashed.add(h));
    sheets.push({ NAME: name, HEADER_ROW: header === null ? null : header + 1, ...built, ...(privateColumns && { SHARE_FORMATS: privateColumns.SHARE_FORMATS }) });
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
    bytesRead: buffer.length,
  };
}
