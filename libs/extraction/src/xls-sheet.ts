// One sheet of an .xls, its records walked as SheetJS's parse_workbook walks them: each cell record
// placed in its row and typed and formatted as SheetJS makes it, the sheet's range as SheetJS ends
// with it. A form read otherwise declines.
import { bodyAt, BOF, EOF, readUnicodeString, recordEnd, rkNumber } from './biff-records';
import { type CellFormat, ERROR_TEXTS, type FormattedCell, type XlsSsf } from './cell-formats';
import { Declined, type ScannedRow, type SheetRow, type SheetScan } from './sheet-scan';

// The records a sheet's range and cells come in
const DIMENSIONS = 0x0200;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

export interface XlsCellFormat extends CellFormat {
  /** Neither built in nor defined by the workbook: SheetJS would take it from formats of earlier reads. */
  unknown: boolean;
}

export const GENERAL: XlsCellFormat = { id: 0, code: 'General', isDate: false, unknown: false };

/** A cell of an .xls: its format is null when its XF is missing. */
export interface XlsCell extends FormattedCell {
  format: XlsCellFormat | null;
}

export interface SheetEntry {
  name: string;
  /** Offsets of the sheet's BOF record and of the record after its EOF. */
  start: number;
  end: number;
}

/** What a sheet's scan reads from its workbook (the globals). */
export interface XlsBook {
  stream: Buffer;
  ssf: XlsSsf;
  date1904: boolean;
  /** Shared strings (LABELSST cells point into them). */
  strings: string[];
  /** The number format of each XF, by index. */
  formats: XlsCellFormat[];
}

/** A number cell as SheetJS types it (cellDates: a number in a date format is a date). */
function numberCell(book: XlsBook, value: number, format: XlsCellFormat | null): XlsCell {
  if (format?.isDate && format.id !== 0) {
    const code = book.ssf.parse_date_code(value + (book.date1904 ? 1462 : 0));
    if (code) return { t: 'd', v: new Date(Date.UTC(code.y, code.m - 1, code.d, code.H, code.M, code.S, code.u)), format, serial: value };
  }
  return { t: 'n', v: value, format };
}

/** An error cell: its display text is the error's (none without an XF). */
function errorCell(code: number, format: XlsCellFormat | null): XlsCell {
  return { t: 'e', v: code, format, w: format === null ? undefined : ERROR_TEXTS.get(code), formatted: true };
}

export class XlsSheetScan implements SheetScan {
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
    private readonly book: XlsBook,
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
  private formatOf(ixfe: number): XlsCellFormat | null {
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
              set(column, numberCell(book, stream.readDoubleLE(p + 6), this.formatOf(stream.readUInt16LE(p + 4)) ?? GENERAL));
            break;
          }
          case RK: {
            if (length < 10) throw new Declined('a short RK');
            const column = stream.readUInt16LE(p + 2);
            if (this.place(stream.readUInt16LE(p), column)) set(column, numberCell(book, rkNumber(stream, p + 6), this.formatOf(stream.readUInt16LE(p + 4))));
            break;
          }
          case MULRK: {
            const count = (length - 6) / 6;
            const row = stream.readUInt16LE(p);
            const first = stream.readUInt16LE(p + 2);
            if (length < 12 || !Number.isInteger(count) || stream.readUInt16LE(p + length - 2) !== first + count - 1) throw new Declined('an odd MULRK');
            for (let i = 0; i < count; i++) {
              const item = p + 4 + 6 * i;
              if (this.place(row, first + i)) set(first + i, numberCell(book, rkNumber(stream, item + 2), this.formatOf(stream.readUInt16LE(item))));
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
            set(column, stream[p + 7] === 1 ? errorCell(value, format) : ({ t: 'b', v: value === 1, format } as XlsCell));
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
              if (this.place(row, column)) set(column, numberCell(book, stream.readDoubleLE(p + 6), this.formatOf(ixfe)));
            } else if (kind === 0) {
              // a text result: the STRING record that follows holds it
            } else if (kind > 3) {
              throw new Declined('an unknown formula result');
            } else if (this.place(row, column)) {
              const format = this.formatOf(ixfe);
              set(
                column,
                kind === 1 ? ({ t: 'b', v: byte === 1, format } as XlsCell) : kind === 2 ? errorCell(byte, format) : ({ t: 's', v: '', format } as XlsCell),
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
