// BIFF8 records (MS-XLS) of an .xls's workbook stream, read as SheetJS reads them: record types,
// bodies with their CONTINUE records joined, strings whose character width may switch where a
// CONTINUE starts, the shared string table, RK numbers and BOF records.
import { Declined } from './sheet-scan';

export const BOF = 0x0809;
export const EOF = 0x000a;
const CONTINUE = 0x003c;
/** What SheetJS's slurp joins to the record before them. */
const CONTINUES = new Set([0x003c, 0x043c, 0x0812, 0x0875, 0x087f]);
const FILEPASS = 0x002f;
export const CODEPAGE = 0x0042;
export const DATEMODE = 0x0022;
export const BOUNDSHEET = 0x0085;
export const XF = 0x00e0;
export const FORMAT = 0x041e;
export const SST = 0x00fc;
const BIFF8 = 0x0600;
export const GLOBALS = 0x0005;
export const WORKSHEET = 0x0010;
export const UTF16_CODEPAGES = new Set([1200, 0x5212]);
/**
 * Records SheetJS reads in ways this reader does not follow: BIFF2-4 forms (cells, formats, XFs, BOFs),
 * rich-text labels, cell notes (they add stub cells), and records that change how later ones are read
 * (encryption, and number formats, XFs, shared strings or the date system outside the globals).
 */
export const DECLINED_ANYWHERE = new Set([
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
export const GLOBALS_ONLY = new Set([XF, FORMAT, SST, DATEMODE, BOUNDSHEET]);

/** A record's body with the CONTINUE records after it joined, and where each joined piece starts (SheetJS's `lens`). */
export interface Body {
  data: Buffer;
  pieces: number[] | null;
  /** The offset of the record after the body's CONTINUE records. */
  next: number;
}

export function recordEnd(stream: Buffer, at: number): number {
  if (at + 4 > stream.length) throw new Declined('a record header past the stream');
  const end = at + 4 + stream.readUInt16LE(at + 2);
  if (end > stream.length) throw new Declined('a record past the stream');
  return end;
}

export function bodyAt(stream: Buffer, at: number): Body {
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
export function readChars(body: Body, at: number, count: number, wide: boolean): [string, number] {
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
export function readUnicodeString(body: Body, at: number): string {
  if (at + 2 > body.data.length) throw new Declined('a short string');
  const count = body.data.readUInt16LE(at);
  if (count === 0) return '';
  return readChars(body, at + 3, count, body.data[at + 2] !== 0)[0];
}

/** The shared string table: XLUnicodeRichExtendedStrings, their rich text runs and phonetic blocks skipped. */
export function readSharedStrings(body: Body): string[] {
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
export function rkNumber(data: Buffer, at: number): number {
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

/** A BOF record this reader reads as SheetJS does: BIFF8, of the given substream type (-1: any). */
export function checkBof(stream: Buffer, at: number, kind: number): void {
  const end = recordEnd(stream, at);
  if (end - at < 8 || stream.readUInt16LE(at + 4) !== BIFF8) throw new Declined('not BIFF8');
  if (kind >= 0 && stream.readUInt16LE(at + 6) !== kind) throw new Declined(kind === WORKSHEET ? 'a sheet that is not a worksheet' : 'no workbook globals');
}
