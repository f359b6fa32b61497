// CSV records found in the file's bytes instead of its decoded text: the reader of csv-records.ts
// (the same records, the same cells, the same cases it declines) working on a Buffer, so that the
// text is never decoded as a whole and a cell becomes a string only when a figure keeps it. Cells
// are given as byte ranges with flags; the delimiter, quote and line ends are ASCII, and in UTF-8
// and Windows-1252 no byte of another character equals an ASCII one, so a byte range is exactly
// the range of characters the text reader would have sliced.
import { completeUtf8Length } from './io';

/** The cell was quoted and holds doubled quotes ("" stands for "). */
export const ESCAPED = 1;
/** The cell holds a byte that is not ASCII: it must be decoded to be read. */
export const NON_ASCII = 2;

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The records of one piece of text: cells as byte ranges (quotes excluded), grouped by record. */
export class ByteRecords {
  /** Records found. */
  count = 0;
  /** Cells of record r: firstCell[r] .. firstCell[r + 1] - 1. */
  firstCell = new Int32Array(1024);
  /** Where record r starts and ends (after its line end): for record lengths. */
  recordStart = new Int32Array(1024);
  recordEnd = new Int32Array(1024);
  cellStart = new Int32Array(8192);
  cellEnd = new Int32Array(8192);
  cellFlags = new Uint8Array(8192);
  /** End of the last record that ended with a line end (the piece's start when none did). */
  end = 0;
  /** The longest of those records in bytes, line end included. */
  longest = 0;
  /** Cells in total. */
  private cells = 0;

  reset(start: number): void {
    this.count = 0;
    this.cells = 0;
    this.firstCell[0] = 0;
    this.end = start;
    this.longest = 0;
  }

  addCell(start: number, end: number, flags: number): void {
    if (this.cells === this.cellStart.length) {
      this.cellStart = grown(this.cellStart);
      this.cellEnd = grown(this.cellEnd);
      this.cellFlags = grown(this.cellFlags);
    }
    this.cellStart[this.cells] = start;
    this.cellEnd[this.cells] = end;
    this.cellFlags[this.cells] = flags;
    this.cells++;
  }

  /** Closes the record begun at `start` with the cells added since the last one. */
  endRecord(start: number, end: number): void {
    if (this.count + 2 > this.firstCell.length) {
      this.firstCell = grown(this.firstCell);
      this.recordStart = grown(this.recordStart);
      this.recordEnd = grown(this.recordEnd);
    }
    this.recordStart[this.count] = start;
    this.recordEnd[this.count] = end;
    this.firstCell[++this.count] = this.cells;
  }

  /** Forgets the cells added since the last endRecord (an unfinished record). */
  dropOpenRecord(): void {
    this.cells = this.firstCell[this.count];
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** For each delimiter: 1 for the bytes that end an unquoted field's scan (it, CR, LF and the quote). */
const FIELD_STOPS: Array<Uint8Array | undefined> = [];

function fieldStops(delimiter: number): Uint8Array {
  const stops = new Uint8Array(256);
  for (const c of [delimiter, CR, LF, QUOTE]) stops[c] = 1;
  return (FIELD_STOPS[delimiter] = stops);
}

/**
 * Reads the records of bytes[from, to), which starts at a record start, into `out` as
 * readSimpleRecords reads the same text: without `final` it stops before an unfinished last
 * record; with `final` the end ends the last record. False: a case it leaves to the text reader
 * (papaparse), exactly those readSimpleRecords answers null for; `out` is then not to be used.
 */
export function readByteRecords(
  bytes: Uint8Array,
  from: number,
  to: number,
  delimiter: number,
  newline: '\n' | '\r\n' | '\r',
  final: boolean,
  out: ByteRecords,
): boolean {
  out.reset(from);
  // papaparse drops a byte order mark at the start of each text it is given.
  if (to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) return false;
  const crlf = newline === '\r\n';
  const lineCode = newline === '\r' ? CR : LF;
  const stops = FIELD_STOPS[delimiter] ?? fieldStops(delimiter);
  let pos = from;
  records: while (pos < to) {
    const recordStart = pos;
    for (;;) {
      let stop: number; // where the field's value ends: a delimiter, a line end or the end
      if (pos < to && bytes[pos] === QUOTE) {
        let q = pos + 1;
        let flags = 0;
        let seen = 0;
        for (;;) {
          while (q < to && bytes[q] !== QUOTE) seen |= bytes[q++];
          if (q === to) {
            if (final) return false; // an unclosed quote
            break records;
          }
          if (q + 1 < to && bytes[q + 1] === QUOTE) {
            q += 2;
            flags = ESCAPED;
            continue;
          }
          break;
        }
        out.addCell(pos + 1, q, seen >= 128 ? flags | NON_ASCII : flags);
        stop = q + 1;
        if (stop < to) {
          const c = bytes[stop];
          if (c !== delimiter && c !== CR && c !== LF) return false; // text after a closing quote
        }
      } else {
        let q = pos;
        let seen = 0;
        let c = 0;
        while (q < to) {
          c = bytes[q];
          if (stops[c] !== 0) break;
          seen |= c;
          q++;
        }
        if (q < to && c === QUOTE) return false; // a quote inside a field
        out.addCell(pos, q, seen >= 128 ? NON_ASCII : 0);
        stop = q;
      }
      if (stop === to) {
        if (final) out.endRecord(recordStart, to);
        break records;
      }
      const c = bytes[stop];
      if (c === delimiter) {
        pos = stop + 1;
        continue;
      }
      // A line end: it must be the file's own.
      let next: number;
      if (crlf) {
        if (c !== CR) return false;
        if (stop + 1 === to) {
          if (final) return false;
          break records;
        }
        if (bytes[stop + 1] !== LF) return false;
        next = stop + 2;
      } else {
        if (c !== lineCode) return false;
        next = stop + 1;
      }
      out.endRecord(recordStart, next);
      if (next - recordStart > out.longest) out.longest = next - recordStart;
      out.end = pos = next;
      continue records;
    }
  }
  // An unfinished record's cells are not a record (yet).
  out.dropOpenRecord();
  return true;
}

const WINDOWS_1252 = new TextDecoder('windows-1252');

/**
 * The cells of a ByteRecords as strings, decoded as the text reader's decoder would have decoded
 * them: UTF-8 before the point where the stream stopped being valid UTF-8, Windows-1252 from there.
 */
export class ByteCells {
  constructor(
    readonly bytes: Buffer,
    readonly records: ByteRecords,
    /** The stream offset of bytes[0]. */
    private readonly offset: number,
    /** The stream offset from which the text is Windows-1252 (Infinity: UTF-8 throughout). */
    private readonly windows1252From: number,
  ) {}

  /** Cell `cell`'s text. */
  text(cell: number): string {
    const start = this.records.cellStart[cell];
    const end = this.records.cellEnd[cell];
    const flags = this.records.cellFlags[cell];
    const text = flags & NON_ASCII ? this.decode(start, end) : this.bytes.toString('latin1', start, end);
    return flags & ESCAPED ? text.replaceAll('""', '"') : text;
  }

  /** Record r's cells as strings. */
  row(r: number): string[] {
    const cells: string[] = [];
    for (let c = this.records.firstCell[r]; c < this.records.firstCell[r + 1]; c++) cells.push(this.text(c));
    return cells;
  }

  /** Whether record r is blank: every cell empty or white space (csv.ts's isBlank). */
  isBlank(r: number): boolean {
    const { records, bytes } = this;
    for (let c = records.firstCell[r]; c < records.firstCell[r + 1]; c++) {
      if (records.cellFlags[c] !== 0) {
        if (this.text(c).trim() !== '') return false;
        continue;
      }
      for (let i = records.cellStart[c]; i < records.cellEnd[c]; i++) {
        const b = bytes[i];
        if (b !== 32 && (b < 9 || b > 13)) return false;
      }
    }
    return true;
  }

  /**
   * The length in UTF-16 units of the text of bytes[start, end) (what the text reader measures
   * records by). Without `complete`, a UTF-8 sequence cut off at the end is not counted: the
   * decoder would still be holding it.
   */
  textLength(start: number, end: number, complete: boolean): number {
    const switchAt = Math.max(start, Math.min(end, this.windows1252From - this.offset));
    let length = end - switchAt; // Windows-1252: one character a byte
    let utf8End = switchAt;
    if (!complete && switchAt === end) utf8End = start + completeUtf8Length(this.bytes.subarray(start, end));
    for (let i = start; i < utf8End; i++) {
      const b = this.bytes[i];
      if ((b & 0xc0) !== 0x80) length += b >= 0xf0 ? 2 : 1;
    }
    return length;
  }

  private decode(start: number, end: number): string {
    const switchAt = this.windows1252From - this.offset;
    if (end <= switchAt) return this.bytes.toString('utf8', start, end);
    if (start >= switchAt) return WINDOWS_1252.decode(this.bytes.subarray(start, end));
    return this.bytes.toString('utf8', start, switchAt) + WINDOWS_1252.decode(this.bytes.subarray(switchAt, end));
  }
}
