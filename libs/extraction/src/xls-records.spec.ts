// The .xls (BIFF8) reader against SheetJS on workbooks built here record by record (biff-builder.fixture.ts),
// with the forms Excel writes and SheetJS does not: RK and MULRK numbers, shared strings split over
// CONTINUE records with the character width switching, rich and phonetic strings, formulas with cached
// results, 1904 dates, custom number formats, embedded charts, mini streams, a DIFAT. Forms the reader
// declines must still be read (by SheetJS) with the same META.
import * as XLSX from '@e965/xlsx';
import {
  BIFF,
  biffStream,
  chars,
  compoundFile,
  interleavedCompoundFile,
  record,
  RK,
  type SheetSpec,
  sharedStrings,
  sheetjsStream,
  type SstItem,
  u16,
} from './biff-builder.fixture';
import { workbookStream } from './compound-file';
import { workbookChecks } from './workbook-readers.fixture';

const { expectSameAsSheetjs, expectDeclinedAndSameAsSheetjs } = workbookChecks('xls');

// Number formats and XFs of the built workbooks: XF i has format FORMATS_OF_XF[i]
const FORMATS = [
  BIFF.format(164, 'yyyy\\-mm\\-dd'),
  BIFF.format(165, '0.0" kg"'),
  BIFF.format(166, 'd.m'),
  BIFF.format(167, 'hh:mm'),
  BIFF.format(5, '"€"#,##0;\\-"€"#,##0'),
];
const FORMATS_OF_XF = [0, 14, 164, 165, 22, 166, 49, 10, 167, 5, 15];
const XF = { general: 0, date: 1, iso: 2, kg: 3, dateTime: 4, badDm: 5, text: 6, percent: 7, time: 8, euro: 9, dMmmYy: 10, missing: 200 };

const SST_ITEMS: SstItem[] = [
  { text: 'name' },
  { text: ' padded é and a longer text to cross a record or two ' },
  { text: 'Rich text over runs', runs: 3 },
  { text: 'Ünïcödé 漢字 🚀 and latin again, then 漢字 once more' },
  { text: '' },
  { text: 'phonetic ふりがな', phonetic: 37 },
  { text: 'NA' },
  { text: 'both', runs: 2, phonetic: 11 },
  { text: 'x'.repeat(150) },
  { text: 'line\r\nbreak' },
];

function cellRows(rows: number, date1904: boolean): Buffer[] {
  const out: Buffer[] = [
    BIFF.dimensions(rows + 3, 12),
    BIFF.label(0, 0, XF.general, 'Back to Contents'),
    BIFF.mulblank(1, 0, [XF.general, XF.date, XF.general]),
    BIFF.labelsst(2, 0, XF.general, 0),
    BIFF.label(2, 1, XF.general, 'amount'),
    BIFF.label(2, 2, XF.general, 'wann ✓', true),
    BIFF.labelsst(2, 3, XF.general, 2),
    BIFF.labelsst(2, 4, XF.general, 3),
    BIFF.label(2, 5, XF.text, 'flag'),
    BIFF.label(2, 6, XF.general, 'formula'),
    BIFF.label(2, 7, XF.general, 'ratio'),
    BIFF.boolerr(2, 8, XF.general, 0x07, true), // an error as a header
    BIFF.mulrk(2, 9, [
      [XF.general, RK.int(1)],
      [XF.general, RK.int(2)],
    ]),
  ];
  const serials = [60, 59.5, 61.25, 1, 0.75, -3, 45000.123456, 2958466, 39448, 43831.5];
  for (let i = 1; i <= rows; i++) {
    const r = i + 2;
    out.push(BIFF.labelsst(r, 0, XF.general, i % SST_ITEMS.length));
    const rk = [RK.int(i), RK.int(-i * 1000), RK.hundredths(i + 0.25), RK.double(0.5 + i), RK.double(-3.75), RK.doubleHundredths(1.5)][i % 6];
    if (i % 5 === 0) out.push(BIFF.number(r, 1, XF.kg, i * 1.1));
    else out.push(BIFF.rk(r, 1, [XF.general, XF.kg, XF.euro, XF.percent][i % 4], rk));
    out.push(BIFF.number(r, 2, [XF.date, XF.iso, XF.dateTime, XF.badDm, XF.time, XF.dMmmYy][i % 6], serials[i % serials.length] + (date1904 ? 0 : i)));
    out.push(
      i % 4 === 0 ? BIFF.boolerr(r, 3, XF.general, [0x00, 0x0f, 0x17, 0x1d, 0x24, 0x2a, 0x99][i % 7], true) : BIFF.boolerr(r, 3, XF.general, i % 2, false),
    );
    if (i % 7 === 0) out.push(BIFF.blank(r, 4, XF.general));
    else out.push(BIFF.label(r, 4, XF.general, i % 3 ? `wörd ${i % 9}` : `${i}`, i % 2 === 0));
    out.push(BIFF.rk(r, 5, XF.text, RK.int(i % 2)));
    switch (i % 6) {
      case 0:
        out.push(BIFF.formula(r, 6, XF.general, BIFF.resultNumber(i / 7)));
        break;
      case 1:
        out.push(BIFF.formula(r, 6, XF.general, BIFF.result(0)), BIFF.string(`res ${i % 4} ü`));
        break;
      case 2:
        out.push(BIFF.formula(r, 6, XF.general, BIFF.result(1, i % 4 === 0 ? 1 : 0)));
        break;
      case 3:
        out.push(BIFF.formula(r, 6, XF.percent, BIFF.result(2, 0x07)));
        break;
      case 4:
        out.push(BIFF.formula(r, 6, XF.general, BIFF.result(3)));
        break;
      default:
        out.push(BIFF.formula(r, 6, XF.date, BIFF.resultNumber(40000 + i)));
    }
    out.push(
      BIFF.mulrk(r, 7, [
        [XF.percent, RK.hundredths(i / 4)],
        [XF.missing, RK.int(i)],
        [XF.general, RK.int(i * 3)],
      ]),
    );
    if (i % 10 === 0) out.push(BIFF.number(r, 10, XF.missing, i + 0.5)); // a NUMBER without its XF: General
    out.push(BIFF.mulblank(r, 11, [XF.general]));
  }
  return out;
}

function builtWorkbook(options: { date1904: boolean; rows: number; sstRecord: number }): Buffer {
  const globals = [BIFF.datemode(options.date1904), ...FORMATS, ...FORMATS_OF_XF.map(BIFF.xf), ...sharedStrings(SST_ITEMS, options.sstRecord)];
  const chart = [BIFF.bof(0x0020), BIFF.number(0, 0, 0, 99), BIFF.eof()];
  const sheets: SheetSpec[] = [
    { name: 'cells', records: cellRows(options.rows, options.date1904) },
    {
      name: 'no header',
      records: [
        BIFF.dimensions(3, 3),
        ...[0, 1, 2].flatMap((r) => [BIFF.rk(r, 0, 0, RK.int(r)), BIFF.number(r, 1, 0, r * 2.5), BIFF.rk(r, 2, 0, RK.hundredths(r + 0.01))]),
      ],
    },
    { name: 'empty', records: [BIFF.dimensions(0, 0)] },
    {
      name: 'ünïcode 表',
      hidden: true,
      records: [BIFF.dimensions(2, 2), BIFF.label(0, 0, 0, 'h'), BIFF.label(0, 1, 0, 'n'), BIFF.label(1, 0, 0, 'x'), BIFF.rk(1, 1, 0, RK.int(1))],
    },
    {
      name: 'with chart',
      records: [BIFF.dimensions(3, 2), BIFF.label(0, 0, 0, 'a'), BIFF.label(0, 1, 0, 'b'), ...chart, BIFF.rk(1, 0, 0, RK.int(1)), BIFF.rk(2, 1, 0, RK.int(2))],
    },
    {
      name: 'narrow range',
      records: [BIFF.dimensions(2, 1), BIFF.label(0, 0, 0, 'a'), BIFF.label(0, 1, 0, 'b'), BIFF.rk(1, 0, 0, RK.int(1)), BIFF.rk(3, 4, 0, RK.int(2))],
    },
  ];
  return compoundFile({ Workbook: biffStream(globals, sheets) });
}

describe('xls reader: workbooks built record by record', () => {
  it.each([
    { date1904: false, sstRecord: 8224 },
    { date1904: false, sstRecord: 41 },
    { date1904: true, sstRecord: 23 },
  ])(
    'RK, MULRK, shared strings over CONTINUE records, formulas, dates, formats, embedded charts (1904 $date1904, SST records of $sstRecord bytes)',
    async (options) => {
      const bytes = builtWorkbook({ ...options, rows: 600 });
      expect(workbookStream(bytes).equals(sheetjsStream(bytes))).toBe(true);
      await expectSameAsSheetjs(bytes);
    },
  );

  it('a workbook stream in the mini stream (under 4096 bytes)', async () => {
    const stream = biffStream(
      [BIFF.xf(0)],
      [
        {
          name: 'small',
          records: [BIFF.dimensions(3, 2), BIFF.label(0, 0, 0, 'a'), BIFF.label(0, 1, 0, 'b'), BIFF.rk(1, 0, 0, RK.int(1)), BIFF.rk(2, 1, 0, RK.int(2))],
        },
      ],
    );
    expect(stream.length).toBeLessThan(4096);
    const bytes = compoundFile({ Workbook: stream });
    expect(workbookStream(bytes).equals(stream)).toBe(true);
    await expectSameAsSheetjs(bytes);
  });

  it('a workbook stream whose sectors are not in one piece', async () => {
    const stream = builtWorkbook({ date1904: false, rows: 60, sstRecord: 100 });
    const bytes = interleavedCompoundFile({ Workbook: sheetjsStream(stream), Other: Buffer.alloc(9000, 1) });
    expect(workbookStream(bytes).equals(sheetjsStream(stream))).toBe(true);
    await expectSameAsSheetjs(bytes);
  });

  it('a compound file large enough for a DIFAT chain', async () => {
    const stream = sheetjsStream(builtWorkbook({ date1904: false, rows: 50, sstRecord: 8224 }));
    const bytes = compoundFile({ Padding: Buffer.alloc(7_500_000, 3), Workbook: stream });
    expect(bytes.readInt32LE(68)).toBeGreaterThanOrEqual(0); // the DIFAT's first sector
    expect(workbookStream(bytes).equals(stream)).toBe(true);
    await expectSameAsSheetjs(bytes);
  });

  it('a long formula string result over a CONTINUE record', async () => {
    const text = `${'long '.repeat(30)}漢字`;
    // 100 one-byte characters in the STRING record, the rest as two-byte characters in its CONTINUE
    const first = Buffer.concat([u16(text.length), Buffer.from([0]), chars(text.slice(0, 100), false)]);
    const rest = Buffer.concat([Buffer.from([1]), chars(text.slice(100), true)]);
    const records = [
      BIFF.dimensions(2, 2),
      BIFF.label(0, 0, 0, 'f'),
      BIFF.label(0, 1, 0, 'n'),
      BIFF.formula(1, 0, 0, BIFF.result(0)),
      record(0x0207, first),
      record(0x003c, rest),
      BIFF.rk(1, 1, 0, RK.int(5)),
    ];
    await expectSameAsSheetjs(compoundFile({ Workbook: biffStream([BIFF.xf(0)], [{ name: 's', records }]) }));
  });
});

describe('xls reader: forms it declines are read by SheetJS', () => {
  const sheet = (records: Buffer[], globals: Buffer[] = [BIFF.xf(0)], options?: { codepage?: number }): Buffer =>
    compoundFile({
      Workbook: biffStream(globals, [{ name: 's', records: [BIFF.dimensions(3, 2), BIFF.label(0, 0, 0, 'a'), BIFF.label(0, 1, 0, 'b'), ...records] }], options),
    });
  it.each([
    ['rows out of order', sheet([BIFF.rk(2, 0, 0, RK.int(1)), BIFF.rk(1, 0, 0, RK.int(2))])],
    ['a cell note', sheet([BIFF.rk(1, 0, 0, RK.int(1)), BIFF.note(1, 1)])],
    ['a shared string that is not there', sheet([BIFF.labelsst(1, 0, 0, 5)], [BIFF.xf(0), ...sharedStrings([{ text: 'x' }], 8224)])],
    ['a code page other than UTF-16', sheet([BIFF.label(1, 0, 0, 'caf\u00e9')], [BIFF.xf(0)], { codepage: 1252 })],
    ['a number format the workbook does not define', sheet([BIFF.number(1, 0, 1, 3.5)], [BIFF.xf(0), BIFF.xf(170)])],
    ['a STRING record without its formula', sheet([BIFF.string('lost')])],
    [
      'an encrypted workbook (FILEPASS)',
      compoundFile({
        Workbook: biffStream([record(0x002f, u16(0), u16(0)), BIFF.xf(0)], [{ name: 's', records: [BIFF.dimensions(1, 1), BIFF.rk(0, 0, 0, RK.int(1))] }]),
      }),
    ],
  ])('%s', async (_what, bytes) => {
    await expectDeclinedAndSameAsSheetjs(bytes);
  });

  it('a BIFF5 workbook (a Book stream)', async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      workbook,
      XLSX.utils.aoa_to_sheet([
        ['a', 'b'],
        [1, 'x'],
        [2, 'y'],
      ]),
      'five',
    );
    await expectDeclinedAndSameAsSheetjs(XLSX.write(workbook, { type: 'buffer', bookType: 'biff5' }) as Buffer);
  });
});
