// The .xls (BIFF8) reader against SheetJS: the same META (and column sketches) from both, on every
// shared .xls and on workbooks SheetJS writes with every kind of cell; bad input keeps SheetJS's errors.
// Workbooks built record by record, with the forms Excel writes and SheetJS does not, are in
// xls-records.spec.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { compoundFile, sheetjsStream } from './biff-builder.fixture';
import { workbookStream } from './compound-file';
import { Declined } from './sheet-scan';
import { DATASETS, dataset } from './spec-support.fixture';
import { VARIANTS, workbookChecks } from './workbook-readers.fixture';

const { read, expectSameAsSheetjs } = workbookChecks('xls');

const sharedWorkbooks = existsSync(path.join(DATASETS, 'excel')) ? readdirSync(path.join(DATASETS, 'excel')).filter((f) => f.endsWith('.xls')) : [];

describe('xls reader: shared workbooks', () => {
  it('finds the shared workbooks (../shared/datasets beside the repository)', () => {
    expect(sharedWorkbooks).toEqual(expect.arrayContaining(['BreastTissue.xls', 'titanic3.xls', 'wti-month.xls']));
  });

  it.each(sharedWorkbooks)('%s: the same workbook stream as SheetJS finds, and the same META', async (file) => {
    const bytes = readFileSync(dataset(`excel/${file}`));
    expect(workbookStream(bytes).equals(sheetjsStream(bytes))).toBe(true);
    await expectSameAsSheetjs(bytes);
  });
});

// ---------------------------------------------------------------------------------------------
// Workbooks SheetJS writes (BIFF8: NUMBER, LABEL or LABELSST, BOOLERR, BLANK records)

const D = (iso: string): Date => new Date(iso);

function typedSheet(rows: number): XLSX.WorkSheet {
  const aoa: unknown[][] = [['Back to Contents'], [], ['id', 'amount', 'flag', 'when', 'label', 'ratio', 'err', '', 'time']];
  for (let i = 1; i <= rows; i++) {
    aoa.push([
      i,
      i % 7 === 0 ? null : (i * 37.25) % 1000,
      i % 3 === 0,
      D(`2024-0${(i % 9) + 1}-1${i % 10}T0${i % 10}:30:00Z`),
      i % 11 === 0 ? 'NA' : i % 13 === 0 ? `  café & <ß> "${i}" ` : ['alpha', 'beta', 'Gamma δ', 'x\r\ny', '漢字 🚀'][i % 5],
      i / 3,
      i % 17 === 0 ? { t: 'e', v: 0x2a } : i % 19 === 0 ? { t: 'e', v: 0x07 } : -i * 1e6,
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
  }
  return sheet;
}

function writtenWorkbook(options: { sst: boolean; date1904: boolean; rows: number }): Buffer {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, typedSheet(options.rows), 'typed');
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
  return XLSX.write(workbook, { type: 'buffer', bookType: 'biff8', bookSST: options.sst, cellDates: true }) as Buffer;
}

describe('xls reader: workbooks SheetJS writes', () => {
  it.each([
    { sst: true, date1904: false },
    { sst: false, date1904: false },
    { sst: true, date1904: true },
  ])(
    'numbers, text, booleans, errors, dates and times, number formats, blanks, hidden and empty sheets (shared strings $sst, 1904 $date1904)',
    async ({ sst, date1904 }) => {
      await expectSameAsSheetjs(writtenWorkbook({ sst, date1904, rows: 1200 }));
    },
  );
});

describe('xls reader: bad input keeps its errors', () => {
  const good = writtenWorkbook({ sst: true, date1904: false, rows: 30 });
  const noHeader = Buffer.from(good);
  noHeader.writeUInt16LE(5, 26); // an unknown major version
  it.each([
    ['a truncated compound file', good.subarray(0, good.length - 3000)],
    ['a compound file cut inside its header', good.subarray(0, 300)],
    ['an unknown compound file version', noHeader],
    ['not a compound file (the signature, then noise)', Buffer.concat([good.subarray(0, 8), Buffer.alloc(4000, 0x41)])],
    ['a compound file without a workbook stream', compoundFile({ Other: Buffer.alloc(5000, 7) })],
    ['a workbook stream that is no BIFF', compoundFile({ Workbook: Buffer.alloc(5000, 9) })],
  ])('%s: the same outcome as SheetJS', async (_what, bytes) => {
    await expect(read(bytes, 'xls-reader', VARIANTS[0])).rejects.toBeInstanceOf(Declined);
    for (const variant of VARIANTS) expect(await read(bytes, 'auto', variant)).toEqual(await read(bytes, 'sheetjs', variant));
  });
});
