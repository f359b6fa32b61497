// .xls (BIFF8 in an OLE2 compound file) read without SheetJS's workbook of cell objects: the compound
// file's Workbook stream is found in the file in memory, its globals (shared strings, number formats,
// sheet directory) are read once, then each sheet's records are walked row by row into the table.
// Every value, display text and sheet range comes out as SheetJS (@e965/xlsx, with extraction's read
// options) made it: its rules are ported from parse_workbook and its record parsers, and any form this
// reader does not read the way SheetJS does (BIFF2-5, encryption, code pages other than UTF-16, comments,
// chart sheets, rows out of order, damaged containers...) makes it decline, and the caller hands the
// workbook to SheetJS. xls-reader.spec.ts compares both on every workbook it can find or make.
// Here, the workbook's globals; the compound file is read in compound-file.ts, the records in
// biff-records.ts, each sheet in xls-sheet.ts.
import {
  BOF,
  bodyAt,
  BOUNDSHEET,
  checkBof,
  CODEPAGE,
  DATEMODE,
  DECLINED_ANYWHERE,
  EOF,
  FORMAT,
  GLOBALS,
  GLOBALS_ONLY,
  readChars,
  readSharedStrings,
  readUnicodeString,
  recordEnd,
  SST,
  UTF16_CODEPAGES,
  WORKSHEET,
  XF,
} from './biff-records';
import { BAD_FORMATS, builtInFormatTable, DEFAULT_MAP, DEFAULT_STRINGS, displayText, type XlsSsf } from './cell-formats';
import { workbookStream } from './compound-file';
import { Declined, type SheetCell, type WorkbookSheet } from './sheet-scan';
import { GENERAL, type SheetEntry, type XlsBook, type XlsCell, type XlsCellFormat, XlsSheetScan } from './xls-sheet';

/** An .xls opened for reading sheet by sheet; open() throws Declined when SheetJS should read it. */
export class XlsWorkbook {
  readonly sheets: WorkbookSheet[] = [];

  private constructor(
    private readonly book: XlsBook,
    sheets: SheetEntry[],
    rowLimit: number,
  ) {
    for (const sheet of sheets) this.sheets.push({ name: sheet.name, scan: () => new XlsSheetScan(book, sheet, rowLimit) });
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
    const table = builtInFormatTable();
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

    const byId = new Map<number, XlsCellFormat>([[0, GENERAL]]);
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
    return new XlsWorkbook({ stream, ssf, date1904, strings, formats }, sheets, rowLimit);
  }

  /** The cell's display text (SheetJS's `.w`), formatted on first use: only shown cells need it. */
  displayOf(cell: SheetCell): string | undefined {
    return displayText(cell as XlsCell, this.book.ssf, this.book.date1904);
  }
}
