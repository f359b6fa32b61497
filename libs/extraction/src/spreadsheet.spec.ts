import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { dataset, expectClose, extractDataset, reference, summary } from './spec-support.fixture';
import type { ExtractionResult } from './types';

interface SheetCase {
  sheet: string;
  headerRow: number;
  rows: number;
  columns?: number;
}

// Header rows, row and column counts: the datasets README. Statistics: recomputed from SheetJS's
// own sheet_to_json rows (not the library's dense-cell reading, header detection or accumulators).
const WORKBOOKS: Array<{ file: string; sheets: SheetCase[]; main: string }> = [
  { file: 'excel/titanic3.xls', sheets: [{ sheet: 'titanic3', headerRow: 1, rows: 1309, columns: 14 }], main: 'titanic3' },
  { file: 'excel/BreastTissue.xls', sheets: [{ sheet: 'Data', headerRow: 1, rows: 106, columns: 11 }], main: 'Data' },
  { file: 'excel/wti-month.xls', sheets: [{ sheet: 'Data 1', headerRow: 3, rows: 391, columns: 2 }], main: 'Data 1' },
  {
    file: 'excel/off-year-turnout-2023.xlsx',
    sheets: [
      { sheet: 'Virginia', headerRow: 1, rows: 134 },
      { sheet: 'Kentucky', headerRow: 1, rows: 120 },
      { sheet: 'Ohio', headerRow: 1, rows: 88 },
      { sheet: 'Pennsylvania', headerRow: 1, rows: 67 },
      { sheet: 'New Jersey', headerRow: 1, rows: 21 },
    ],
    main: 'Virginia',
  },
  {
    file: 'excel/pollster-stats-full-2020.xlsx',
    sheets: [{ sheet: 'pollster-stats-full-may-2020', headerRow: 1, rows: 453, columns: 30 }],
    main: 'pollster-stats-full-may-2020',
  },
  { file: 'excel/Auto.xlsx', sheets: [{ sheet: 'Sheet1', headerRow: 1, rows: 397, columns: 9 }], main: 'Sheet1' },
];

type Cell = string | number | boolean | Date | null;

function referenceSheet(file: string, sheet: string, headerRow: number): { headers: string[]; rows: Cell[][] } {
  const workbook = XLSX.read(readFileSync(dataset(file)), { cellDates: true });
  const all = XLSX.utils.sheet_to_json<Cell[]>(workbook.Sheets[sheet], { header: 1, raw: true, defval: null, blankrows: true });
  const header = all[headerRow - 1];
  const rows = all.slice(headerRow).filter((row) => row.some((cell) => cell !== null && String(cell).trim() !== ''));
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const headers = Array.from({ length: width }, (_, i) => {
    const name = header[i] === null || header[i] === undefined ? '' : String(header[i]).trim();
    return name === '' ? `Column ${i + 1}` : name;
  });
  return { headers, rows };
}

const asReferenceCell = (cell: Cell | undefined): string | number | null =>
  cell === null || cell === undefined ? null : cell instanceof Date ? cell.toISOString() : typeof cell === 'boolean' ? String(cell) : cell;

describe.each(WORKBOOKS)('spreadsheet $file', ({ file, sheets, main }) => {
  let result: ExtractionResult;

  beforeAll(async () => {
    result = await extractDataset(file);
  });

  it('describes every sheet and picks the main one', () => {
    expect(result.STATUS).toBe('complete');
    const workbook = XLSX.read(readFileSync(dataset(file)), { bookSheets: true });
    expect(result.SHEETS?.map((s) => s.NAME)).toEqual(workbook.SheetNames);
    const mainSheet = result.SHEETS?.find((s) => s.NAME === main);
    expect(result.FILE?.HEADERS).toEqual(mainSheet?.HEADERS);
    expect(result.FILE?.TOTAL_ROWS).toBe(mainSheet?.TOTAL_ROWS);
  });

  it.each(sheets)('sheet $sheet: header row, rows and per-column statistics', ({ sheet, headerRow, rows, columns }) => {
    const table = result.SHEETS?.find((s) => s.NAME === sheet);
    const expected = referenceSheet(file, sheet, headerRow);
    expect(table?.HEADER_ROW).toBe(headerRow);
    expect(table?.TOTAL_ROWS).toBe(rows);
    expect(expected.rows).toHaveLength(rows);
    expect(table?.HEADERS).toEqual(expected.headers);
    if (columns) expect(table?.HEADERS).toHaveLength(columns);
    expected.headers.forEach((_, i) => {
      const column = table?.STATS[String(i)];
      const ref = reference(expected.rows.map((row) => asReferenceCell(row[i])));
      expect({ i, missing: column?.MISSING_VALS, count: column?.DICT.count, duplicates: column?.DUPLICATE_VALS }).toEqual({
        i,
        missing: ref.missing,
        count: ref.count,
        duplicates: ref.count - ref.distinct,
      });
      if (ref.count > 0 && ref.numbers.length >= ref.count * 0.9) {
        const s = summary(ref.numbers);
        expectClose(column?.MIN ?? null, s.min);
        expectClose(column?.MAX ?? null, s.max);
        expectClose(column?.MEAN ?? null, s.mean);
        expectClose(column?.STD ?? null, s.std, 1e-7);
      } else {
        expect({ i, min: column?.MIN }).toEqual({ i, min: null });
      }
    });
  });
});

describe('spreadsheet specifics', () => {
  it('wti-month: title rows are skipped and Excel date serials are dates', async () => {
    const result = await extractDataset('excel/wti-month.xls');
    const data = result.SHEETS?.find((s) => s.NAME === 'Data 1');
    expect(data?.HEADERS).toEqual(['Date', 'Cushing, OK WTI Spot Price FOB (Dollars per Barrel)']);
    expect(data?.STATS['0'].DICT.type).toBe('date');
    expect(data?.STATS['0'].FORMATTED_VALS[0]).toBe('Jan-1986');
    expect(data?.STATS['1'].FORMATTED_VALS[0]).toBe('22.93');
  });

  it('Auto.xlsx: "?" horsepower counts as missing and empty sheets are described as empty', async () => {
    const result = await extractDataset('excel/Auto.xlsx');
    const sheet1 = result.SHEETS?.find((s) => s.NAME === 'Sheet1');
    const horsepower = sheet1?.STATS[String(sheet1.HEADERS.indexOf('horsepower'))];
    expect(horsepower?.MISSING_VALS).toBe(5);
    expect(horsepower?.DICT.type).toBe('integer');
    expect(result.SHEETS?.find((s) => s.NAME === 'Sheet2')).toMatchObject({ HEADERS: [], TOTAL_ROWS: 0, HEADER_ROW: null });
  });

  it('titanic3: a column mixing numbers and text is text, with no numeric statistics', async () => {
    const result = await extractDataset('excel/titanic3.xls');
    const boat = result.FILE?.STATS[String(result.FILE.HEADERS.indexOf('boat'))];
    expect(boat?.DICT.type).toBe('text');
    expect(boat?.DICT.kinds.integer).toBeGreaterThan(0);
    expect(boat?.DICT.kinds.text).toBeGreaterThan(0);
    expect(boat?.MEAN).toBeNull();
  });

  it('pollster: a blank header cell gets a positional name', async () => {
    const result = await extractDataset('excel/pollster-stats-full-2020.xlsx');
    expect(result.FILE?.HEADERS[1]).toBe('Column 2');
  });
});
