// The .xls (BIFF8) reader against SheetJS: the same META (and column sketches) from both, on every
// shared .xls and on workbooks SheetJS writes with every kind of cell; bad input keeps SheetJS's errors.
// Workbooks built record by record, with the forms Excel writes and SheetJS does not, are in
// xls-records.spec.ts.
import { readFileSync } from 'node:fs';
import { compoundFile, sheetjsStream } from './biff-builder.fixture';
import { workbookStream } from './compound-file';
import { dataset } from './spec-support.fixture';
import { workbookChecks, WRITTEN_FORMS } from './workbook-readers.fixture';

const { sharedWorkbooks, written: writtenWorkbook, expectSameAsSheetjs, expectDeclinedAndSameAsSheetjs } = workbookChecks('xls');

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

describe('xls reader: workbooks SheetJS writes', () => {
  it.each(WRITTEN_FORMS)(
    'numbers, text, booleans, errors, dates and times, number formats, blanks, hidden and empty sheets (shared strings $sst, 1904 $date1904)',
    async (form) => {
      await expectSameAsSheetjs(writtenWorkbook({ ...form, rows: 1200 }));
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
    await expectDeclinedAndSameAsSheetjs(bytes);
  });
});
