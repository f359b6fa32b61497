// The .xls (BIFF8) reader against SheetJS: the same META (and column sketches) from both, on every
// shared .xls, on workbooks SheetJS writes with every kind of cell, and on workbooks built here record by
// record with the forms Excel writes and SheetJS does not (RK and MULRK numbers, shared strings split
// over CONTINUE records with the character width switching, rich and phonetic strings, formulas with
// cached results, 1904 dates, custom number formats, embedded charts, mini streams, a DIFAT). Forms
// the reader declines must still be read (by SheetJS) with the same META and the same errors.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { ExtractorContext } from './context';
import { resolveLimits } from './extract';
import { ColumnPrivacy } from './private-columns';
import { SketchCollector } from './sketch';
import { DATASETS, dataset, streamOf } from './spec-support';
import { extractSpreadsheet, type WorkbookReader } from './spreadsheet';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';
import { workbookStream } from './xls-reader';
import { Declined } from './xlsx-reader';

interface Variant {
  option: Exclude<ExtractOption, 'minimal'>;
  limits?: Partial<ExtractionLimits>;
  privacy?: PrivateColumns;
  sketches?: boolean;
}

const KEY = new Uint8Array(32).fill(7);
const VARIANTS: Variant[] = [
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

async function read(bytes: Buffer, reader: WorkbookReader, variant: Variant): Promise<unknown> {
  const observers = variant.sketches ? new SketchCollector() : undefined;
  const ctx: ExtractorContext = {
    option: variant.option,
    limits: resolveLimits(variant.limits),
    fileName: 'book.xls',
    allowArchives: true,
    privacy: variant.privacy ? new ColumnPrivacy(variant.privacy) : undefined,
    observers,
  };
  try {
    const meta = await extractSpreadsheet(streamOf(bytes, 7919), ctx, 'xls', reader);
    return { meta, sketches: observers?.tables };
  } catch (error) {
    if (reader === 'xls-reader') throw error;
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Both readers, every variant: the same META; the xls reader must not have declined. */
async function expectSameAsSheetjs(bytes: Buffer): Promise<void> {
  for (const variant of VARIANTS) {
    const own = await read(bytes, 'xls-reader', variant);
    expect({ variant, result: own }).toEqual({ variant, result: await read(bytes, 'sheetjs', variant) });
  }
}

/** A form the reader declines: SheetJS reads it, so 'auto' gives what SheetJS gives. */
async function expectDeclinedAndSameAsSheetjs(bytes: Buffer): Promise<void> {
  await expect(read(bytes, 'xls-reader', VARIANTS[0])).rejects.toBeInstanceOf(Declined);
  for (const variant of VARIANTS) expect(await read(bytes, 'auto', variant)).toEqual(await read(bytes, 'sheetjs', variant));
}

/** The workbook stream SheetJS's own compound file reader finds. */
function sheetjsStream(bytes: Buffer): Buffer {
  const cfb = XLSX.CFB.read(bytes, { type: 'buffer' });
  const entry = XLSX.CFB.find(cfb, '/Workbook') ?? XLSX.CFB.find(cfb, '/Book');
  return Buffer.from(entry?.content as Uint8Array);
}

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

// ---------------------------------------------------------------------------------------------
// Workbooks built record by record

const u16 = (n: number): Buffer => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};
const record = (type: number, ...body: Buffer[]): Buffer => {
  const data = Buffer.concat(body);
  return Buffer.concat([u16(type), u16(data.length), data]);
};
const isLatin = (text: string): boolean => !/[^\u0000-\u00ff]/.test(text);
const chars = (text: string, wide: boolean): Buffer => Buffer.from(text, wide ? 'utf16le' : 'latin1');
/** XLUnicodeString: length, flags, characters (one byte each when they all fit, unless `wide`). */
const unicodeString = (text: string, wide = !isLatin(text)): Buffer => Buffer.concat([u16(text.length), Buffer.from([wide ? 1 : 0]), chars(text, wide)]);

const BIFF = {
  bof: (kind: number) => record(0x0809, u16(0x0600), u16(kind), u16(0x0dbb), u16(0x07cc), u32(0x80c9), u32(0x0206)),
  eof: () => record(0x000a),
  codepage: (cp: number) => record(0x0042, u16(cp)),
  datemode: (on: boolean) => record(0x0022, u16(on ? 1 : 0)),
  format: (id: number, code: string) => record(0x041e, u16(id), unicodeString(code)),
  xf: (format: number) => record(0x00e0, u16(0), u16(format), u16(0x0001), Buffer.alloc(14)),
  dimensions: (rows: number, columns: number) => record(0x0200, u32(0), u32(rows), u16(0), u16(columns), u16(0)),
  cell: (row: number, column: number, xf: number) => Buffer.concat([u16(row), u16(column), u16(xf)]),
  number: (row: number, column: number, xf: number, value: number) => record(0x0203, BIFF.cell(row, column, xf), f64(value)),
  rk: (row: number, column: number, xf: number, rk: number) => record(0x027e, BIFF.cell(row, column, xf), u32(rk)),
  mulrk: (row: number, column: number, items: Array<[number, number]>) =>
    record(0x00bd, u16(row), u16(column), ...items.map(([xf, rk]) => Buffer.concat([u16(xf), u32(rk)])), u16(column + items.length - 1)),
  labelsst: (row: number, column: number, xf: number, index: number) => record(0x00fd, BIFF.cell(row, column, xf), u32(index)),
  label: (row: number, column: number, xf: number, text: string, wide?: boolean) => record(0x0204, BIFF.cell(row, column, xf), unicodeString(text, wide)),
  boolerr: (row: number, column: number, xf: number, value: number, error: boolean) =>
    record(0x0205, BIFF.cell(row, column, xf), Buffer.from([value, error ? 1 : 0])),
  blank: (row: number, column: number, xf: number) => record(0x0201, BIFF.cell(row, column, xf)),
  mulblank: (row: number, column: number, xfs: number[]) => record(0x00be, u16(row), u16(column), ...xfs.map(u16), u16(column + xfs.length - 1)),
  /** A formula (the token stream: a reference to A1) with its cached result. */
  formula: (row: number, column: number, xf: number, result: Buffer) =>
    record(0x0006, BIFF.cell(row, column, xf), result, u16(0), u32(0), u16(5), Buffer.from([0x24]), u16(0), u16(0xc000)),
  resultNumber: (value: number) => f64(value),
  result: (kind: number, byte = 0) => Buffer.from([kind, 0, byte, 0, 0, 0, 0xff, 0xff]),
  string: (text: string) => record(0x0207, unicodeString(text)),
  note: (row: number, column: number) => record(0x001c, u16(row), u16(column), u16(0), u16(1), u16(0), Buffer.from([0, 0])),
};

/** RK encodings: a 30-bit integer, hundredths, or a double whose low 32 bits are zero. */
const RK = {
  int: (n: number) => ((n << 2) | 2) >>> 0,
  hundredths: (n: number) => ((Math.round(n * 100) << 2) | 3) >>> 0,
  double: (value: number) => {
    const b = f64(value);
    if (b.readUInt32LE(0) !== 0) throw new Error(`${value} is no RK double`);
    return b.readUInt32LE(4);
  },
  doubleHundredths: (value: number) => (RK.double(value * 100) | 1) >>> 0,
};

interface SstItem {
  text: string;
  /** Rich text runs (4 bytes each, skipped) */
  runs?: number;
  /** A phonetic block of this many bytes (skipped) */
  phonetic?: number;
}

/**
 * The shared string table in records of at most `max` bytes: a string's header is never split; its
 * characters are, each CONTINUE starting with a flag byte whose width alternates between pieces (two
 * bytes a character whenever one does not fit in one); rich runs and phonetic blocks are split anywhere.
 */
function sharedStrings(items: SstItem[], max: number): Buffer[] {
  const records: Buffer[][] = [[u32(items.length * 2), u32(items.length)]];
  let size = 8;
  const next = (): void => {
    records.push([]);
    size = 0;
  };
  const put = (bytes: Buffer): void => {
    records[records.length - 1].push(bytes);
    size += bytes.length;
  };
  const putSplit = (bytes: Buffer): void => {
    for (let i = 0; i < bytes.length;) {
      if (size === max) next();
      const n = Math.min(max - size, bytes.length - i);
      put(bytes.subarray(i, i + n));
      i += n;
    }
  };
  for (const item of items) {
    const { text } = item;
    let wide = !isLatin(text.slice(0, 1)) || text.length % 3 === 1;
    const flags = (wide ? 1 : 0) | (item.runs ? 8 : 0) | (item.phonetic ? 4 : 0);
    const header = Buffer.concat([
      u16(text.length),
      Buffer.from([flags]),
      item.runs ? u16(item.runs) : Buffer.alloc(0),
      item.phonetic ? u32(item.phonetic) : Buffer.alloc(0),
    ]);
    if (size + header.length > max) next();
    put(header);
    for (let i = 0, first = true; i < text.length; first = false) {
      if (!first) {
        next();
        wide = !wide || !isLatin(text[i]);
        put(Buffer.from([wide ? 1 : 0]));
      }
      let n = Math.min(text.length - i, Math.floor((max - size) / (wide ? 2 : 1)));
      if (!wide) for (let k = 0; k < n; k++) if (!isLatin(text[i + k])) n = k;
      put(chars(text.slice(i, i + n), wide));
      i += n;
    }
    if (item.runs) putSplit(Buffer.alloc(4 * item.runs, 0x11));
    if (item.phonetic) putSplit(Buffer.alloc(item.phonetic, 0x22));
  }
  return records.map((parts, i) => record(i === 0 ? 0x00fc : 0x003c, ...parts));
}

interface SheetSpec {
  name: string;
  hidden?: boolean;
  records: Buffer[];
}

/** A BIFF8 workbook stream: the globals (with each sheet's BOUNDSHEET8 pointing at its BOF), then the sheets. */
function biffStream(globals: Buffer[], sheets: SheetSpec[], options: { codepage?: number } = {}): Buffer {
  const boundsheet = (position: number, sheet: SheetSpec): Buffer =>
    record(
      0x0085,
      u32(position),
      Buffer.from([sheet.hidden ? 1 : 0, 0, sheet.name.length, isLatin(sheet.name) ? 0 : 1]),
      chars(sheet.name, !isLatin(sheet.name)),
    );
  const head = [BIFF.bof(0x0005), BIFF.codepage(options.codepage ?? 1200), ...globals];
  const bodies = sheets.map((sheet) => Buffer.concat([BIFF.bof(0x0010), ...sheet.records, BIFF.eof()]));
  let position = Buffer.concat([...head, ...sheets.map((s) => boundsheet(0, s)), BIFF.eof()]).length;
  const entries = sheets.map((sheet, i) => {
    const entry = boundsheet(position, sheet);
    position += bodies[i].length;
    return entry;
  });
  return Buffer.concat([...head, ...entries, BIFF.eof(), ...bodies]);
}

/** A compound file holding `streams` (SheetJS's CFB writer: small streams go to the mini stream). */
function compoundFile(streams: Record<string, Buffer>): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(cfb, `/${name}`, content);
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/**
 * A compound file written here (version 3, no mini stream: every stream padded to 4096 bytes or more),
 * with the sectors of its streams interleaved, so that none of them lies in one piece.
 */
function interleavedCompoundFile(streams: Record<string, Buffer>): Buffer {
  const names = Object.keys(streams);
  const chunks = names.map((name) => {
    const data = Buffer.concat([streams[name], Buffer.alloc(Math.max(0, 4096 - streams[name].length))]);
    return Array.from({ length: Math.ceil(data.length / 512) }, (_, i) => data.subarray(i * 512, i * 512 + 512));
  });
  const sectors: Buffer[] = [];
  const owners: number[][] = names.map(() => []);
  for (let round = 0; chunks.some((c) => round < c.length); round++) {
    chunks.forEach((c, s) => {
      if (round < c.length) {
        owners[s].push(sectors.length);
        sectors.push(Buffer.concat([c[round], Buffer.alloc(512 - c[round].length)]));
      }
    });
  }
  const directorySector = sectors.length;
  const entry = (name: string, type: number, child: number, right: number, start: number, size: number): Buffer => {
    const b = Buffer.alloc(128);
    b.write(`${name}\0`, 0, 'utf16le');
    b.writeUInt16LE(2 * (name.length + 1), 64);
    b[66] = type;
    b[67] = 1;
    b.writeInt32LE(-1, 68);
    b.writeInt32LE(right, 72);
    b.writeInt32LE(child, 76);
    b.writeInt32LE(start, 116);
    b.writeUInt32LE(size, 120);
    return b;
  };
  const dirEntries = [
    entry('Root Entry', 5, 1, -1, -2, 0),
    ...names.map((name, i) => entry(name, 2, -1, i + 2 <= names.length ? i + 2 : -1, owners[i][0], Math.max(4096, streams[name].length))),
  ];
  while (dirEntries.length % 4) dirEntries.push(Buffer.alloc(128));
  const directory = Buffer.concat(dirEntries);
  const directorySectors = directory.length / 512;
  for (let i = 0; i < directorySectors; i++) sectors.push(directory.subarray(i * 512, i * 512 + 512));
  const fatSector = sectors.length;
  const fat = new Int32Array(128).fill(-1);
  for (const list of owners) list.forEach((s, i) => (fat[s] = i + 1 < list.length ? list[i + 1] : -2));
  for (let i = 0; i < directorySectors; i++) fat[directorySector + i] = i + 1 < directorySectors ? directorySector + i + 1 : -2;
  fat[fatSector] = -3;
  if (fatSector >= 128) throw new Error('too many sectors for one FAT sector');
  sectors.push(Buffer.from(fat.buffer));
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44);
  header.writeInt32LE(directorySector, 48);
  header.writeUInt32LE(4096, 56);
  header.writeInt32LE(-2, 60);
  header.writeInt32LE(-2, 68);
  for (let i = 0; i < 109; i++) header.writeInt32LE(i === 0 ? fatSector : -1, 76 + 4 * i);
  return Buffer.concat([header, ...sectors]);
}

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
