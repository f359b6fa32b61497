// .xls (BIFF8 in an OLE2 compound file) read without SheetJS's workbook of cell objects: the compound
// file's Workbook stream is found in the file in memory, its globals (shared strings, number formats,
// sheet directory) are read once, then each sheet's records are walked row by row into the table.
// Every value, display text and sheet range comes out as SheetJS (@e965/xlsx, with extraction's read
// options) made it: its rules are ported from parse_workbook and its record parsers, and any form this
// reader does not read the way SheetJS does (BIFF2-5, encryption, code pages other than UTF-16, comments,
// chart sheets, rows out of order, damaged containers...) makes it decline, and the caller hands the
// workbook to SheetJS. xls-reader.spec.ts compares both on every workbook it can find or make.
import {
  BAD_FORMATS,
  BUILT_IN_FORMATS,
  Declined,
  ERROR_CODES,
  type ScannedRow,
  type SheetCell,
  type SheetRow,
  type SheetScan,
  type WorkbookSheet,
} from './xlsx-reader';

// ---------------------------------------------------------------------------------------------
// The compound file (MS-CFB)

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = -2;
const NO_STREAM = -1;
const MINI_SECTOR = 64;
const MINI_CUTOFF = 4096;
const DIRECTORY_ENTRY = 128;
const STORAGE = 1;
const STREAM = 2;
const ROOT = 5;

export function isCompoundFile(buffer: Buffer): boolean {
  return buffer.length >= 8 && buffer.subarray(0, 8).equals(SIGNATURE);
}

interface DirectoryEntry {
  /** As SheetJS's find compares it: NULs dropped, upper case, \u0001-\u0006 as '!'. */
  key: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

/**
 * The sectors, FAT and directory of a compound file; anything SheetJS's CFB.read would read otherwise is
 * declined. Not CFB.read itself (the `cfb` package's code): it copies every stream of the file, 0.25 s of
 * CPU and 31 MB on the benchmark's 20 MB workbook, where this finds the Workbook stream in 0.06 s without
 * a copy when its sectors lie in one piece.
 */
class CompoundFile {
  private readonly sectorSize: number;
  /** The FAT's own sectors, in order (-1: a free DIFAT slot, as SheetJS keeps them). */
  private readonly fatSectors: number[] = [];
  readonly entries: DirectoryEntry[] = [];
  private readonly miniFatStart: number;

  constructor(private readonly file: Buffer) {
    if (file.length < 512 || !isCompoundFile(file)) throw new Declined('not a compound file');
    const major = file.readUInt16LE(26);
    this.sectorSize = major === 3 ? 512 : major === 4 ? 4096 : 0;
    if (this.sectorSize === 0 || file.length < this.sectorSize) throw new Declined('an unknown compound file version');
    if (file.readUInt16LE(30) !== (major === 3 ? 9 : 12) || file.readUInt16LE(32) !== 6) throw new Declined('unusual sector sizes');
    if (file.readUIntLE(34, 6) !== 0 || (major === 3 && file.readInt32LE(40) !== 0)) throw new Declined('unusual header fields');
    if (file.readInt32LE(56) !== MINI_CUTOFF) throw new Declined('an unusual mini stream cutoff');
    const directoryStart = file.readInt32LE(48);
    this.miniFatStart = file.readInt32LE(60);
    const miniFatSectors = file.readInt32LE(64);

    // The FAT's sectors: up to 109 in the header, then the DIFAT chain (each of its sectors ends with the next's number)
    for (let i = 0; i < 109; i++) {
      const sector = file.readInt32LE(76 + 4 * i);
      if (sector < 0) break;
      this.fatSectors.push(sector);
    }
    const perSector = this.sectorSize / 4;
    let difat = file.readInt32LE(68);
    let difatLeft = file.readInt32LE(72);
    if (difat === END_OF_CHAIN && difatLeft !== 0) throw new Declined('a short DIFAT chain');
    for (let read = 0; difat !== END_OF_CHAIN && difat !== NO_STREAM; read++) {
      if (read > this.sectorCount) throw new Declined('a DIFAT chain that does not end');
      const at = this.wholeSector(difat);
      for (let i = 0; i < perSector - 1; i++) {
        const sector = file.readInt32LE(at + 4 * i);
        if (sector === END_OF_CHAIN) break;
        this.fatSectors.push(sector);
      }
      if (difatLeft < 1) break;
      difat = file.readInt32LE(at + this.sectorSize - 4);
      difatLeft--;
      if (difat === END_OF_CHAIN && difatLeft !== 0) throw new Declined('a short DIFAT chain');
    }
    if (this.fatSectors.length === 0 || this.fatSectors[0] < 0) throw new Declined('no FAT');
    if (miniFatSectors > 0 && this.miniFatStart !== END_OF_CHAIN) this.offsetOf(this.miniFatStart);

    const directory = this.chainBytes(directoryStart, -1);
    for (let at = 0; at + DIRECTORY_ENTRY <= directory.length; at += DIRECTORY_ENTRY) {
      const nameLength = directory.readUInt16LE(at + 64);
      if (nameLength > 64 || nameLength % 2 !== 0) throw new Declined('an odd directory entry name');
      const name = directory.toString('utf16le', at, at + nameLength);
      const start = directory.readInt32LE(at + 116);
      const size = directory.readInt32LE(at + 120);
      const unused = size < 0 && start < 0;
      const entry = {
        key: name
          .replace(/\0/g, '')
          .toUpperCase()
          .replace(/[\u0001-\u0006]/g, '!'),
        type: unused ? 0 : directory[at + 66],
        left: directory.readInt32LE(at + 68),
        right: directory.readInt32LE(at + 72),
        child: directory.readInt32LE(at + 76),
        start,
        size,
      };
      // SheetJS reads every large stream's chain: one starting outside the file fails it
      if (entry.type !== ROOT && size >= MINI_CUTOFF) this.offsetOf(start);
      this.entries.push(entry);
    }
    if (this.entries[0]?.type !== ROOT) throw new Declined('no root entry');
    this.checkTree();
  }

  /** SheetJS's sector count: the file after the header, the last sector perhaps short. */
  private get sectorCount(): number {
    return Math.ceil(this.file.length / this.sectorSize) - 1;
  }

  private offsetOf(sector: number): number {
    if (!(sector >= 0 && sector < this.sectorCount)) throw new Declined('a sector outside the file');
    return (sector + 1) * this.sectorSize;
  }

  /** A sector the container's own structures are read from: it must be whole. */
  private wholeSector(sector: number): number {
    const at = this.offsetOf(sector);
    if (at + this.sectorSize > this.file.length) throw new Declined('a short sector');
    return at;
  }

  /** The FAT entry of a sector: the next sector of its chain. */
  private nextSector(sector: number): number {
    const perSector = this.sectorSize / 4;
    const page = this.fatSectors[Math.floor(sector / perSector)];
    if (page === undefined || page < 0) throw new Declined('a sector the FAT does not cover');
    return this.file.readInt32LE(this.wholeSector(page) + 4 * (sector % perSector));
  }

  /** Every storage and stream is reached once from the root, so each has the one path SheetJS gives it. */
  private checkTree(): void {
    const seen = new Set<number>();
    const pending = [this.entries[0].child];
    while (pending.length > 0) {
      const i = pending.pop() as number;
      if (i === NO_STREAM) continue;
      if (!(i > 0 && i < this.entries.length) || seen.has(i)) throw new Declined('a damaged directory tree');
      seen.add(i);
      const entry = this.entries[i];
      if (entry.type !== STORAGE && entry.type !== STREAM) throw new Declined('an unusual directory entry');
      pending.push(entry.left, entry.right);
      if (entry.type === STORAGE) pending.push(entry.child);
    }
    this.entries.forEach((entry, i) => {
      if (i > 0 && entry.type !== 0 && !seen.has(i)) throw new Declined('a directory entry outside the tree');
    });
  }

  /** The streams and storages directly under the root. */
  rootChildren(): DirectoryEntry[] {
    const out: DirectoryEntry[] = [];
    const pending = [this.entries[0].child];
    while (pending.length > 0) {
      const i = pending.pop() as number;
      if (i === NO_STREAM) continue;
      out.push(this.entries[i]);
      pending.push(this.entries[i].left, this.entries[i].right);
    }
    return out;
  }

  /** The sectors of a chain, in order (a loop or a sector outside the file declines). */
  private chain(start: number): number[] {
    const sectors: number[] = [];
    const seen = new Set<number>();
    for (let sector = start; sector >= 0; sector = this.nextSector(sector)) {
      if (seen.has(sector)) throw new Declined('a sector chain that loops');
      this.offsetOf(sector);
      seen.add(sector);
      sectors.push(sector);
    }
    return sectors;
  }

  /** The first `size` bytes of a chain (all of it, whole sectors, for -1), not copied when its sectors follow each other. */
  private chainBytes(start: number, size: number): Buffer {
    const sectors = this.chain(start);
    const wanted = size < 0 ? sectors.length * this.sectorSize : size;
    const pieces: Buffer[] = [];
    let got = 0;
    for (let i = 0; i < sectors.length && got < wanted;) {
      let j = i + 1;
      while (j < sectors.length && sectors[j] === sectors[j - 1] + 1) j++;
      const from = this.offsetOf(sectors[i]);
      const take = Math.min((j - i) * this.sectorSize, wanted - got, this.file.length - from);
      pieces.push(this.file.subarray(from, from + take));
      got += take;
      i = j;
    }
    if (got < wanted) throw new Declined('a stream longer than its sectors');
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, got);
  }

  /** A stream's bytes: from the FAT, or from the mini stream under 4096 bytes. */
  streamBytes(entry: DirectoryEntry): Buffer {
    if (entry.size <= 0) throw new Declined('an empty stream');
    if (entry.size >= MINI_CUTOFF) return this.chainBytes(entry.start, entry.size);
    const root = this.entries[0];
    if (root.start === END_OF_CHAIN || entry.start === END_OF_CHAIN || this.miniFatStart < 0) throw new Declined('a mini stream without its container');
    const miniStream = this.chainBytes(root.start, -1);
    const miniFat = this.chainBytes(this.miniFatStart, -1);
    const pieces: Buffer[] = [];
    const seen = new Set<number>();
    let left = entry.size;
    for (let sector = entry.start; left > 0;) {
      if (sector < 0 || seen.has(sector) || 4 * sector + 4 > miniFat.length || (sector + 1) * MINI_SECTOR > miniStream.length)
        throw new Declined('a damaged mini stream chain');
      seen.add(sector);
      pieces.push(miniStream.subarray(sector * MINI_SECTOR, sector * MINI_SECTOR + Math.min(MINI_SECTOR, left)));
      left -= MINI_SECTOR;
      sector = miniFat.readInt32LE(4 * sector);
    }
    return Buffer.concat(pieces, entry.size);
  }
}

/** The workbook stream as SheetJS finds it: '/Workbook', else '/Book' (BIFF5, which this reader declines). */
export function workbookStream(file: Buffer): Buffer {
  const cfb = new CompoundFile(file);
  // SheetJS reads these as encrypted workbooks
  if (cfb.entries.some((e) => e.type !== 0 && (e.key === 'ENCRYPTEDPACKAGE' || e.key === 'ENCRYPTION'))) throw new Declined('an encrypted workbook');
  const streams = cfb.rootChildren().filter((e) => e.type === STREAM);
  const workbooks = streams.filter((e) => e.key === 'WORKBOOK');
  if (workbooks.length !== 1) throw new Declined(workbooks.length ? 'two workbook streams' : 'no Workbook stream');
  return cfb.streamBytes(workbooks[0]);
}

// ---------------------------------------------------------------------------------------------
// BIFF8 records (MS-XLS)

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
/** What SheetJS's slurp joins to the record before them. */
const CONTINUES = new Set([0x003c, 0x043c, 0x0812, 0x0875, 0x087f]);
const FILEPASS = 0x002f;
const CODEPAGE = 0x0042;
const DATEMODE = 0x0022;
const BOUNDSHEET = 0x0085;
const XF = 0x00e0;
const FORMAT = 0x041e;
const SST = 0x00fc;
const DIMENSIONS = 0x0200;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;
const BIFF8 = 0x0600;
const GLOBALS = 0x0005;
const WORKSHEET = 0x0010;
const UTF16_CODEPAGES = new Set([1200, 0x5212]);
/**
 * Records SheetJS reads in ways this reader does not follow: BIFF2-4 forms (cells, formats, XFs, BOFs),
 * rich-text labels, cell notes (they add stub cells), and records that change how later ones are read
 * (encryption, and number formats, XFs, shared strings or the date system outside the globals).
 */
const DECLINED_ANYWHERE = new Set([
  0x0000,
  0x0002,
  0x0003,
  0x0004,
  0x0005,
  0x0007,
  0x0009,
  0x001e,
  0x0021,
  0x0043,
  0x0206,
  0x0209,
  0x0243,
  0x0406,
  0x0409,
  0x0443,
  0x00d6,
  0x001c,
  FILEPASS,
]);
const GLOBALS_ONLY = new Set([XF, FORMAT, SST, DATEMODE, BOUNDSHEET]);

// SheetJS's fallbacks for number format ids missing from its table (SSF_default_map, SSF_default_str).
const DEFAULT_MAP: Record<number, number> = {
  5: 37,
  6: 38,
  7: 39,
  8: 40,
  23: 0,
  24: 0,
  25: 0,
  26: 0,
  27: 14,
  28: 14,
  29: 14,
  30: 14,
  31: 14,
  50: 14,
  51: 14,
  52: 14,
  53: 14,
  54: 14,
  55: 14,
  56: 14,
  57: 14,
  58: 14,
  59: 1,
  60: 2,
  61: 3,
  62: 4,
  67: 9,
  68: 10,
  69: 12,
  70: 13,
  71: 14,
  72: 14,
  73: 15,
  74: 16,
  75: 17,
  76: 20,
  77: 21,
  78: 22,
  79: 45,
  80: 46,
  81: 47,
  82: 0,
};
const DEFAULT_STRINGS: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  63: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
};
const ERROR_TEXTS = new Map(Object.entries(ERROR_CODES).map(([text, code]) => [code, text]));

export type XlsSsf = {
  format(format: string, value: unknown, options?: object): string;
  is_date(format: string): boolean;
  parse_date_code(value: number): { y: number; m: number; d: number; H: number; M: number; S: number; u: number } | null;
};

interface CellFormat {
  id: number;
  code: string;
  isDate: boolean;
  /** Neither built in nor defined by the workbook: SheetJS would take it from formats of earlier reads. */
  unknown: boolean;
}

const GENERAL: CellFormat = { id: 0, code: 'General', isDate: false, unknown: false };

interface XlsCell extends SheetCell {
  /** null: the cell's XF is missing, so SheetJS gives it no display text. */
  format: CellFormat | null;
  /** The date serial a date cell was read from: its display text is formatted from it. */
  serial?: number;
  formatted?: boolean;
}

/** A record's body with the CONTINUE records after it joined, and where each joined piece starts (SheetJS's `lens`). */
interface Body {
  data: Buffer;
  pieces: number[] | null;
  /** The offset of the record after the body's CONTINUE records. */
  next: number;
}

function recordEnd(stream: Buffer, at: number): number {
  if (at + 4 > stream.length) throw new Declined('a record header past the stream');
  const end = at + 4 + stream.readUInt16LE(at + 2);
  if (end > stream.length) throw new Declined('a record past the stream');
  return end;
}

function bodyAt(stream: Buffer, at: number): Body {
  let next = recordEnd(stream, at);
  const first = stream.subarray(at + 4, next);
  if (next + 4 > stream.length || !CONTINUES.has(stream.readUInt16LE(next))) return { data: first, pieces: null, next };
  const parts = [first];
  const pieces = [0];
  let length = first.length;
  while (next + 4 <= stream.length && CONTINUES.has(stream.readUInt16LE(next))) {
    if (stream.readUInt16LE(next) !== CONTINUE) throw new Declined('an unusual continuation');
    const end = recordEnd(stream, next);
    pieces.push(length);
    parts.push(stream.subarray(next + 4, end));
    length += end - next - 4;
    next = end;
  }
  return { data: Buffer.concat(parts, length), pieces, next };
}

/**
 * SheetJS's 'sbcs-cont'/'dbcs-cont' reads: `count` characters from `at`, one byte (Latin-1) or two (UTF-16)
 * each; where a joined CONTINUE piece starts at a character, its first byte says the width from there.
 * Returns the text and the offset after it.
 */
function readChars(body: Body, at: number, count: number, wide: boolean): [string, number] {
  const { data, pieces } = body;
  let text = '';
  for (;;) {
    const step = wide ? 2 : 1;
    let run = count;
    if (pieces) {
      for (let k = firstPieceFrom(pieces, at); k < pieces.length && pieces[k] < at + step * run; k++) {
        if ((pieces[k] - at) % step === 0) {
          run = (pieces[k] - at) / step;
          break;
        }
      }
    }
    const end = at + step * run;
    if (end > data.length) throw new Declined('a string past its record');
    text += data.toString(wide ? 'utf16le' : 'latin1', at, end);
    count -= run;
    if (count === 0) return [text, end];
    if (end >= data.length) throw new Declined('a string past its record');
    wide = data[end] !== 0;
    at = end + 1;
  }
}

/** The index of the first piece starting at or after `at`. */
function firstPieceFrom(pieces: number[], at: number): number {
  let low = 0;
  let high = pieces.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (pieces[middle] < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** XLUnicodeString (LABEL, STRING, FORMAT): a 16-bit length, a flags byte (any bit set: two bytes a character). */
function readUnicodeString(body: Body, at: number): string {
  if (at + 2 > body.data.length) throw new Declined('a short string');
  const count = body.data.readUInt16LE(at);
  if (count === 0) return '';
  return readChars(body, at + 3, count, body.data[at + 2] !== 0)[0];
}

/** The shared string table: XLUnicodeRichExtendedStrings, their rich text runs and phonetic blocks skipped. */
function readSharedStrings(body: Body): string[] {
  const { data } = body;
  if (data.length < 8) throw new Declined('a short shared string table');
  const unique = data.readUInt32LE(4);
  const strings: string[] = [];
  let at = 8;
  for (let i = 0; i !== unique && at < data.length; i++) {
    if (at + 3 > data.length) throw new Declined('a short shared string');
    const count = data.readUInt16LE(at);
    const flags = data[at + 2];
    at += 3;
    let runs = 0;
    let phonetic = 0;
    if (flags & 0x8) {
      runs = data.readUInt16LE(at);
      at += 2;
    }
    if (flags & 0x4) {
      phonetic = data.readUInt32LE(at);
      at += 4;
    }
    let text = '';
    if (count > 0) [text, at] = readChars(body, at, count, (flags & 0x1) !== 0);
    at += 4 * runs + phonetic;
    if (at > data.length) throw new Declined('a shared string past its table');
    strings.push(text);
  }
  return strings;
}

const rkBits = new DataView(new ArrayBuffer(8));

/** An RK number: a 30-bit integer or the high 30 bits of a double, perhaps in hundredths. */
function rkNumber(data: Buffer, at: number): number {
  const raw = data.readInt32LE(at);
  let value: number;
  if (raw & 2) value = raw >> 2;
  else {
    rkBits.setInt32(0, 0, true);
    rkBits.setInt32(4, raw & ~3, true);
    value = rkBits.getFloat64(0, true);
  }
  return raw & 1 ? value / 100 : value;
}

interface SheetEntry {
  name: string;
  /** Offsets of the sheet's BOF record and of the record after its EOF. */
  start: number;
  end: number;
}

/** An .xls opened for reading sheet by sheet; open() throws Declined when SheetJS should read it. */
export class XlsWorkbook {
  readonly sheets: WorkbookSheet[] = [];
  /** Shared strings (LABELSST cells point into them). */
  readonly strings: string[];
  /** The number format of each XF, by index. */
  readonly formats: CellFormat[];

  private constructor(
    readonly stream: Buffer,
    private readonly ssf: XlsSsf,
    readonly date1904: boolean,
    globals: { strings: string[]; formats: CellFormat[] },
    sheets: SheetEntry[],
    rowLimit: number,
  ) {
    this.strings = globals.strings;
    this.formats = globals.formats;
    for (const sheet of sheets) this.sheets.push({ name: sheet.name, scan: () => new XlsSheetScan(this, sheet, rowLimit) });
  }

  /** `rowLimit`: SheetJS's sheetRows (0: all). */
  static open(file: Buffer, rowLimit: number, ssf: XlsSsf): XlsWorkbook {
    try {
      const stream = workbookStream(file);
      return XlsWorkbook.read(stream, rowLimit, ssf);
    } catch (error) {
      throw error instanceof Declined ? error : new Declined((error as Error).message);
    }
  }

  private static read(stream: Buffer, rowLimit: number, ssf: XlsSsf): XlsWorkbook {
    if (stream.length < 8 || stream.readUInt16LE(0) !== BOF) throw new Declined('no BOF record first');
    checkBof(stream, 0, GLOBALS);
    // The globals: code page, date system, number formats, XFs, shared strings, sheet directory
    const table = new Map<number, string>(Object.entries(BUILT_IN_FORMATS).map(([id, code]) => [Number(id), code]));
    const xfFormatIds: number[] = [];
    const directory = new Map<number, string>();
    let strings: string[] = [];
    let date1904 = false;
    let at = recordEnd(stream, 0);
    for (;;) {
      const type = stream.readUInt16LE(at);
      const length = stream.readUInt16LE(at + 2);
      if (DECLINED_ANYWHERE.has(type) || type === BOF) throw new Declined(`record 0x${type.toString(16)} in the globals`);
      if (type === EOF) break;
      const data = stream.subarray(at + 4, recordEnd(stream, at));
      let next = at + 4 + length;
      switch (type) {
        case CODEPAGE:
          if (length < 2 || !UTF16_CODEPAGES.has(data.readUInt16LE(0))) throw new Declined('a code page other than UTF-16');
          break;
        case DATEMODE:
          if (length !== 2) throw new Declined('an odd date mode');
          date1904 = data.readUInt16LE(0) === 1;
          break;
        case XF:
          if (length < 6) throw new Declined('a short XF');
          xfFormatIds.push(data.readUInt16LE(2));
          break;
        case FORMAT: {
          const body = bodyAt(stream, at);
          if (body.data.length < 2) throw new Declined('a short number format');
          const code = readUnicodeString(body, 2);
          table.set(body.data.readUInt16LE(0), BAD_FORMATS[code] ?? code);
          next = body.next;
          break;
        }
        case SST: {
          const body = bodyAt(stream, at);
          strings = readSharedStrings(body);
          next = body.next;
          break;
        }
        case BOUNDSHEET: {
          const body = bodyAt(stream, at);
          if (body.data.length < 8) throw new Declined('a short sheet entry');
          if (body.data[5] !== 0) throw new Declined('a sheet that is not a worksheet');
          const position = body.data.readUInt32LE(0);
          const count = body.data[6];
          const name = count === 0 ? '' : readChars(body, 8, count, body.data[7] !== 0)[0];
          if (directory.has(position)) throw new Declined('two sheets at one place');
          directory.set(position, name || 'Sheet1');
          next = body.next;
          break;
        }
      }
      at = next;
    }
    at = recordEnd(stream, at);

    // The sheets' substreams, walked as SheetJS walks them: at the top level, anything but a BOF ends the workbook
    const substreams = new Map<number, number>();
    while (at < stream.length - 1) {
      if (at + 4 > stream.length) {
        if (stream.readUInt16LE(at) === 0) break;
        throw new Declined('a record header past the stream');
      }
      const type = stream.readUInt16LE(at);
      if (type !== BOF) {
        if (type === 0 || !DECLINED_ANYWHERE.has(type)) break;
        throw new Declined(`record 0x${type.toString(16)} between sheets`);
      }
      const start = at;
      checkBof(stream, at, WORKSHEET);
      at = recordEnd(stream, at);
      for (let depth = 1; depth > 0;) {
        const type = stream.readUInt16LE(at);
        const end = recordEnd(stream, at);
        if (DECLINED_ANYWHERE.has(type) || GLOBALS_ONLY.has(type)) throw new Declined(`record 0x${type.toString(16)} in a sheet`);
        if (type === CODEPAGE && (end - at < 6 || !UTF16_CODEPAGES.has(stream.readUInt16LE(at + 4)))) throw new Declined('a code page other than UTF-16');
        if (type === BOF) {
          checkBof(stream, at, -1);
          depth++;
        } else if (type === EOF) depth--;
        at = end;
      }
      substreams.set(start, at);
    }
    const sheets = [...directory.entries()]
      .sort(([a], [b]) => a - b)
      .map(([position, name]) => {
        const end = substreams.get(position);
        if (end === undefined) throw new Declined(`sheet "${name}" is not where the directory says`);
        return { name, start: position, end };
      });
    if (sheets.length === 0) throw new Declined('no sheets');
    if (new Set(sheets.map((s) => s.name)).size !== sheets.length) throw new Declined('two sheets of one name');

    const byId = new Map<number, CellFormat>([[0, GENERAL]]);
    const formats = xfFormatIds.map((id) => {
      let format = byId.get(id);
      if (!format) {
        const own = table.get(id);
        const fallback = DEFAULT_MAP[id] !== undefined ? table.get(DEFAULT_MAP[id]) : undefined;
        format = { id, code: own ?? fallback ?? DEFAULT_STRINGS[id] ?? 'General', isDate: ssf.is_date(own || String(id)), unknown: own === undefined };
        byId.set(id, format);
      }
      return format;
    });
    return new XlsWorkbook(stream, ssf, date1904, { strings, formats }, sheets, rowLimit);
  }

  /** The cell's display text (SheetJS's `.w`), formatted on first use: only shown cells need it. */
  displayOf(cell: SheetCell): string | undefined {
    const own = cell as XlsCell;
    if (own.formatted || cell.t === 'e') return cell.w;
    own.formatted = true;
    if (own.format === null) return undefined;
    try {
      own.w = this.ssf.format(own.format.id === 0 ? 'General' : own.format.code, own.serial ?? cell.v, { date1904: this.date1904 });
    } catch {
      own.w = undefined; // SheetJS leaves .w unset when its formatter throws
    }
    return own.w;
  }

  /** @internal a number cell as SheetJS types it (cellDates: a number in a date format is a date) */
  numberCell(value: number, format: CellFormat | null): XlsCell {
    if (format?.isDate && format.id !== 0) {
      const code = this.ssf.parse_date_code(value + (this.date1904 ? 1462 : 0));
      if (code) return { t: 'd', v: new Date(Date.UTC(code.y, code.m - 1, code.d, code.H, code.M, code.S, code.u)), format, serial: value };
    }
    return { t: 'n', v: value, format };
  }

  /** @internal an error cell: its display text is the error's (none without an XF) */
  errorCell(code: number, format: CellFormat | null): XlsCell {
    return { t: 'e', v: code, format, w: format === null ? undefined : ERROR_TEXTS.get(code), formatted: true };
  }
}

/** A BOF record this reader reads as SheetJS does: BIFF8, of the given substream type (-1: any). */
function checkBof(stream: Buffer, at: number, kind: number): void {
  const end = recordEnd(stream, at);
  if (end - at < 8 || stream.readUInt16LE(at + 4) !== BIFF8) throw new Declined('not BIFF8');
  if (kind >= 0 && stream.readUInt16LE(at + 6) !== kind) throw new Declined(kind === WORKSHEET ? 'a sheet that is not a worksheet' : 'no workbook globals');
}

class XlsSheetScan implements SheetScan {
  declaredColumns = 0;
  refColumns = 0;
  clipped = false;
  private cellsWanted = true;
  // SheetJS's range: the DIMENSIONS record's, widened by every cell placed (end row and column exclusive)
  private endRow = -1;
  private endColumn = -1;
  // The row being read, and the one just finished
  private rowIndex = -1;
  private rowCells: SheetRow | null = null;
  private rowLength = 0;
  private finished: ScannedRow | null = null;

  constructor(
    private readonly book: XlsWorkbook,
    private readonly sheet: SheetEntry,
    private readonly rowLimit: number,
  ) {}

  lengthsOnly(): void {
    this.cellsWanted = false;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ScannedRow> {
    yield* this.rows();
  }

  /**
   * Where parse_workbook's addcell would place a cell: false past the row limit (not placed, the range
   * not widened). A cell of an earlier row than the last declines (SheetJS would add it to that row).
   */
  private place(row: number, column: number): boolean {
    if (this.rowLimit > 0 && row >= this.rowLimit) return false;
    if (this.endRow < 0) throw new Declined('cells before the sheet dimensions');
    if (row + 1 > this.endRow) this.endRow = row + 1;
    if (column + 1 > this.endColumn) this.endColumn = column + 1;
    if (row !== this.rowIndex) {
      if (row < this.rowIndex) throw new Declined('rows out of order');
      if (this.rowLength > 0) this.finished = { index: this.rowIndex, cells: this.rowCells, length: this.rowLength };
      this.rowIndex = row;
      this.rowCells = this.cellsWanted ? [] : null;
      this.rowLength = 0;
    }
    if (column + 1 > this.rowLength) this.rowLength = column + 1;
    return true;
  }

  /** The number format of an XF; one SheetJS would take from earlier reads declines. */
  private formatOf(ixfe: number): CellFormat | null {
    const format = this.book.formats[ixfe] ?? null;
    if (format?.unknown) throw new Declined('a number format the workbook does not define');
    return format;
  }

  /** The sheet's rows, as parse_workbook places cells: a later cell at the same place wins. */
  private *rows(): Generator<ScannedRow> {
    const { book } = this;
    const { stream, strings } = book;
    let lastFormula: { row: number; column: number; ixfe: number } | null = null;
    const set = (column: number, cell: XlsCell): void => {
      if (this.rowCells) this.rowCells[column] = cell;
    };
    let at = recordEnd(stream, this.sheet.start);
    let depth = 1;
    while (at < this.sheet.end) {
      const type = stream.readUInt16LE(at);
      const length = stream.readUInt16LE(at + 2);
      const p = at + 4;
      let next = p + length;
      if (type === BOF) depth++;
      else if (type === EOF) depth--;
      else if (depth > 1) {
        if (type === FORMULA || type === STRING) throw new Declined('formulas inside an embedded substream');
      } else {
        switch (type) {
          case DIMENSIONS:
            if (length < 12) throw new Declined('short dimensions');
            this.endRow = stream.readUInt32LE(p + 4);
            this.endColumn = stream.readUInt16LE(p + 10);
            if (this.declaredColumns === 0 && this.endRow > 0 && this.endColumn > 0) this.declaredColumns = this.endColumn;
            break;
          case NUMBER: {
            if (length < 14) throw new Declined('a short NUMBER');
            const column = stream.readUInt16LE(p + 2);
            // SheetJS gives a NUMBER whose XF is missing the General format, other cells none
            if (this.place(stream.readUInt16LE(p), column))
              set(column, book.numberCell(stream.readDoubleLE(p + 6), this.formatOf(stream.readUInt16LE(p + 4)) ?? GENERAL));
            break;
          }
          case RK: {
            if (length < 10) throw new Declined('a short RK');
            const column = stream.readUInt16LE(p + 2);
            if (this.place(stream.readUInt16LE(p), column)) set(column, book.numberCell(rkNumber(stream, p + 6), this.formatOf(stream.readUInt16LE(p + 4))));
            break;
          }
          case MULRK: {
            const count = (length - 6) / 6;
            const row = stream.readUInt16LE(p);
            const first = stream.readUInt16LE(p + 2);
            if (length < 12 || !Number.isInteger(count) || stream.readUInt16LE(p + length - 2) !== first + count - 1) throw new Declined('an odd MULRK');
            for (let i = 0; i < count; i++) {
              const item = p + 4 + 6 * i;
              if (this.place(row, first + i)) set(first + i, book.numberCell(rkNumber(stream, item + 2), this.formatOf(stream.readUInt16LE(item))));
            }
            break;
          }
          case LABELSST: {
            if (length < 10) throw new Declined('a short LABELSST');
            const column = stream.readUInt16LE(p + 2);
            const index = stream.readUInt32LE(p + 6);
            if (index >= strings.length) throw new Declined('a shared string that is not there');
            if (this.place(stream.readUInt16LE(p), column))
              set(column, { t: 's', v: strings[index], format: this.formatOf(stream.readUInt16LE(p + 4)) } as XlsCell);
            break;
          }
          case LABEL: {
            const body = bodyAt(stream, at);
            if (body.data.length < 8) throw new Declined('a short LABEL');
            const text = readUnicodeString(body, 6);
            const column = body.data.readUInt16LE(2);
            if (this.place(body.data.readUInt16LE(0), column)) set(column, { t: 's', v: text, format: this.formatOf(body.data.readUInt16LE(4)) } as XlsCell);
            next = body.next;
            break;
          }
          case BOOLERR: {
            if (length < 8) throw new Declined('a short BOOLERR');
            const column = stream.readUInt16LE(p + 2);
            const value = stream[p + 6];
            if (!this.place(stream.readUInt16LE(p), column)) break;
            const format = this.formatOf(stream.readUInt16LE(p + 4));
            set(column, stream[p + 7] === 1 ? book.errorCell(value, format) : ({ t: 'b', v: value === 1, format } as XlsCell));
            break;
          }
          case FORMULA: {
            if (length < 20) throw new Declined('a short FORMULA');
            const row = stream.readUInt16LE(p);
            const column = stream.readUInt16LE(p + 2);
            const ixfe = stream.readUInt16LE(p + 4);
            lastFormula = { row, column, ixfe };
            const kind = stream[p + 6];
            const byte = stream[p + 8];
            if (stream.readUInt16LE(p + 12) !== 0xffff) {
              if (this.place(row, column)) set(column, book.numberCell(stream.readDoubleLE(p + 6), this.formatOf(ixfe)));
            } else if (kind === 0) {
              // a text result: the STRING record that follows holds it
            } else if (kind > 3) {
              throw new Declined('an unknown formula result');
            } else if (this.place(row, column)) {
              const format = this.formatOf(ixfe);
              set(
                column,
                kind === 1
                  ? ({ t: 'b', v: byte === 1, format } as XlsCell)
                  : kind === 2
                    ? book.errorCell(byte, format)
                    : ({ t: 's', v: '', format } as XlsCell),
              );
            }
            break;
          }
          case STRING: {
            if (!lastFormula) throw new Declined('a STRING record without its formula');
            const body = bodyAt(stream, at);
            const text = readUnicodeString(body, 0);
            const { row, column, ixfe } = lastFormula;
            if (this.place(row, column)) set(column, { t: 's', v: text, format: this.formatOf(ixfe) } as XlsCell);
            lastFormula = null;
            next = body.next;
            break;
          }
        }
      }
      at = next;
      if (this.finished) {
        yield this.finished;
        this.finished = null;
      }
    }
    if (this.rowLength > 0) yield { index: this.rowIndex, cells: this.rowCells, length: this.rowLength };
    if (this.endRow < 0) throw new Declined('a sheet without dimensions');
    // SheetJS's !ref (none for an empty range) and !fullref (the row limit cut the range)
    if (this.endRow > 0 && this.endColumn > 0) {
      this.refColumns = this.endColumn;
      this.clipped = this.rowLimit > 0 && this.rowLimit <= this.endRow - 1;
    }
  }
}
