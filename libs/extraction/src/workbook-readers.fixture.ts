// What the workbook readers' specs check (xls-reader.spec.ts, xls-records.spec.ts, xlsx-reader.spec.ts):
// a workbook read by the reader under test and by SheetJS, under each of several extraction variants
// (options, limits, private columns, sketches), gives the same META and the same column sketches.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { ExtractorContext } from './context';
import { resolveLimits } from './extract';
import { ColumnPrivacy } from './private-columns';
import { Declined } from './sheet-scan';
import { SketchCollector } from './sketch';
import { DATASETS, streamOf } from './spec-support.fixture';
import { extractSpreadsheet, type WorkbookReader } from './spreadsheet';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';

export interface Variant {
  option: Exclude<ExtractOption, 'minimal'>;
  limits?: Partial<ExtractionLimits>;
  privacy?: PrivateColumns;
  sketches?: boolean;
}

const KEY = new Uint8Array(32).fill(7);
export const VARIANTS: Variant[] = [
  { option: 'metadata' },
  { option: 'samples', sketches: true },
  { option: 'metadata', limits: { maxRowsScanned: 3 } },
  { option: 'samples', limits: { maxRowsScanned: 40, maxColumns: 3, maxCellChars: 6, maxDistinctTracked: 10 }, sketches: true },
  {
    option: 'samples',
    privacy: {
      hash: [0],
      formats: [
        { column: 1, format: 'mask' },
        { column: 2, format: 'exclude' },
      ],
      linkageKey: KEY,
    },
    sketches: true,
  },
];

type Kind = 'xls' | 'xlsx';

const D = (iso: string): Date => new Date(iso);
const LABELS = ['alpha', 'beta', 'Gamma δ', 'x\r\ny', '漢字 🚀'];

/**
 * A sheet of every kind of cell SheetJS writes: numbers, text, booleans, errors, dates and times,
 * number formats and blanks under a title row. Written as .xls it also has a fifth label and a
 * second error code; as .xlsx, error texts and a merged title.
 */
function typedSheet(kind: Kind, rows: number): XLSX.WorkSheet {
  const labels = kind === 'xls' ? LABELS : LABELS.slice(0, 4);
  const aoa: unknown[][] = [['Back to Contents'], [], ['id', 'amount', 'flag', 'when', 'label', 'ratio', 'err', '', 'time']];
  for (let i = 1; i <= rows; i++) {
    aoa.push([
      i,
      i % 7 === 0 ? null : (i * 37.25) % 1000,
      i % 3 === 0,
      D(`2024-0${(i % 9) + 1}-1${i % 10}T0${i % 10}:30:00Z`),
      i % 11 === 0 ? 'NA' : i % 13 === 0 ? `  café & <ß> "${i}" ` : labels[i % labels.length],
      i / 3,
      i % 17 === 0 ? { t: 'e', v: 0x2a } : kind === 'xlsx' ? i : i % 19 === 0 ? { t: 'e', v: 0x07 } : -i * 1e6,
      null,
      (i % 24) / 24,
    ]);
  }
  const sheet = XLSX.utils.aoa_to_sheet(aoa, { cellDates: true });
  for (let r = 3; r < aoa.length; r++) {
    const ratio = sheet[XLSX.utils.encode_cell({ r, c: 5 })] as XLSX.CellObject | undefined;
    if (ratio) ratio.z = r % 2 ? '0.00%' : '#,##0.000';
    const time = sheet[XLSX.utils.encode_cell({ r, c: 8 })] as XLSX.CellObject | undefined;
    if (time) time.z = r % 2 ? 'h:mm:ss' : '[h]:mm';
    const err = sheet[XLSX.utils.encode_cell({ r, c: 6 })] as XLSX.CellObject | undefined;
    if (kind === 'xlsx' && err?.t === 'e') err.w = '#N/A';
  }
  if (kind === 'xlsx') sheet['!merges'] = [{ s: { r: 0, c: 0 }, e: { r: 0, c: 3 } }];
  return sheet;
}

/** A workbook SheetJS writes: the typed sheet, a sheet without header, an empty one, one with a wider declared range, a hidden one. */
function writtenWorkbook(kind: Kind, options: { sst: boolean; date1904: boolean; rows: number }): Buffer {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, typedSheet(kind, options.rows), 'typed');
  XLSX.utils.book_append_sheet(
    workbook,
    XLSX.utils.aoa_to_sheet([
      [1, 2.5, 3],
      [4, 5, 6e-7],
      [-7, 8e20, 9],
    ]),
    'no header',
  );
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([]), 'empty');
  const wide = XLSX.utils.aoa_to_sheet([
    ['a', 'b'],
    [1, 'x'],
    [2, 'y'],
  ]);
  wide['!ref'] = 'A1:F9'; // a declared range wider and longer than the cells
  XLSX.utils.book_append_sheet(workbook, wide, 'wide range');
  XLSX.utils.book_append_sheet(
    workbook,
    XLSX.utils.aoa_to_sheet([
      ['hidden', 'n'],
      ['h', 1],
    ]),
    'hidden',
  );
  workbook.Workbook = { Sheets: [{}, {}, {}, {}, { Hidden: 1 }], WBProps: { date1904: options.date1904 } };
  const format = kind === 'xls' ? { bookType: 'biff8' as const } : { bookType: 'xlsx' as const, compression: true };
  return XLSX.write(workbook, { type: 'buffer', ...format, bookSST: options.sst, cellDates: true }) as Buffer;
}

/** The forms the written workbooks are checked in: shared strings or not, 1900 or 1904 dates. */
export const WRITTEN_FORMS = [
  { sst: true, date1904: false },
  { sst: false, date1904: false },
  { sst: true, date1904: true },
];

/** The checks for the reader of one kind of workbook. */
export function workbookChecks(kind: Kind) {
  const own: WorkbookReader = kind === 'xls' ? 'xls-reader' : 'xlsx-reader';
  /** The shared workbooks of this kind (../shared/datasets beside the repository). */
  const sharedWorkbooks = existsSync(path.join(DATASETS, 'excel')) ? readdirSync(path.join(DATASETS, 'excel')).filter((f) => f.endsWith(`.${kind}`)) : [];

  /** META and sketches as `reader` gives them (SheetJS's errors as text; the reader under test throws). */
  async function read(bytes: Buffer, reader: WorkbookReader, variant: Variant): Promise<unknown> {
    const observers = variant.sketches ? new SketchCollector() : undefined;
    const ctx: ExtractorContext = {
      option: variant.option,
      limits: resolveLimits(variant.limits),
      fileName: `book.${kind}`,
      allowArchives: true,
      privacy: variant.privacy ? new ColumnPrivacy(variant.privacy) : undefined,
      observers,
    };
    try {
      const meta = await extractSpreadsheet(streamOf(bytes, 7919), ctx, kind, reader);
      return { meta, sketches: observers?.tables };
    } catch (error) {
      if (reader === own) throw error;
      return { error: `${(error as Error).name}: ${(error as Error).message}` };
    }
  }

  /** Both readers, every variant: the same META; the reader under test must not have declined. */
  async function expectSameAsSheetjs(bytes: Buffer): Promise<void> {
    for (const variant of VARIANTS) {
      const result = await read(bytes, own, variant);
      expect({ variant, result }).toEqual({ variant, result: await read(bytes, 'sheetjs', variant) });
    }
  }

  /** Every variant: 'auto' gives what SheetJS gives (its META, or its error). */
  async function expectAutoSameAsSheetjs(bytes: Buffer): Promise<void> {
    for (const variant of VARIANTS) expect(await read(bytes, 'auto', variant)).toEqual(await read(bytes, 'sheetjs', variant));
  }

  /** A form the reader declines: SheetJS reads it, so 'auto' gives what SheetJS gives. */
  async function expectDeclinedAndSameAsSheetjs(bytes: Buffer): Promise<void> {
    await expect(read(bytes, own, VARIANTS[0])).rejects.toBeInstanceOf(Declined);
    await expectAutoSameAsSheetjs(bytes);
  }

  return {
    sharedWorkbooks,
    written: (options: { sst: boolean; date1904: boolean; rows: number }) => writtenWorkbook(kind, options),
    read,
    expectSameAsSheetjs,
    expectAutoSameAsSheetjs,
    expectDeclinedAndSameAsSheetjs,
  };
}
