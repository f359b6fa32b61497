// One sheet of an .xlsx, its XML inflated and scanned row by row as SheetJS's parse_ws_xml_data reads
// it: each row's cells typed and formatted as SheetJS types them, the sheet's range as SheetJS ends
// with it. A form read otherwise declines.
import type { Readable } from 'node:stream';
import type yauzl from 'yauzl';
import { type CellFormat, ERROR_CODES, type FormattedCell } from './cell-formats';
import { Declined, type ScannedRow, type SheetCell, type SheetRow, type SheetScan } from './sheet-scan';
import { openEntry } from './zip';
import { binaryText } from './xlsx-parts';
import { dateSerial, isoCellDate, matchElement, stringItemText, unescapeXml, utf8Read, xmlAttributes, xmlBool } from './xlsx-text';

/** What a sheet's scan reads from its workbook. */
export interface XlsxBook {
  zip: yauzl.ZipFile;
  strings: Array<string | undefined>;
  formats: CellFormat[] | null;
  date1904: boolean;
}

/** More text than this before a sheet's rows start is not a sheet this reader knows. */
const MAX_SHEET_HEAD = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_EPOCH = Date.UTC(1899, 11, 30);

/** A cell of an .xlsx: its number format is known (GENERAL when it has none). */
export interface XlsxCell extends FormattedCell {
  format: CellFormat;
}

const GENERAL: CellFormat = { id: 0, code: 'General', isDate: false };

/** SheetJS's numdate: an Excel serial (1900 system) as a Date; the fictitious 1900-02-29 stays a number. */
function serialDate(v: number): Date | number {
  if (v >= 60 && v < 61) return v;
  const out = new Date();
  out.setTime((v > 60 ? v : v + 1) * DAY_MS + DATE_EPOCH);
  return out;
}

/** The column count a range's end stands for (SheetJS's safe_decode_range, end column + 1), or null. */
function rangeEndColumns(range: string): number | null {
  const match = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(range);
  if (!match) return null;
  const [sc, sr, ec, er] = [columnIndex(match[1]), Number(match[2]) - 1, columnIndex(match[3] ?? match[1]), Number(match[4] ?? match[2]) - 1];
  return sc <= ec && sr <= er && sc >= 0 && sr >= 0 ? ec + 1 : null;
}

function rangeEndRow(range: string): number {
  const match = /(\d+)$/.exec(range);
  return match ? Number(match[1]) - 1 : -1;
}

function columnIndex(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
  return n - 1;
}

const SHEET_DATA_OPEN = /<(?:\w+:)?sheetData\b[^<>]*>/;
const CELL_REFERENCE = /^([A-Z]{1,3})([1-9]\d{0,6})$/;
const R_ATTRIBUTE = /r=["']/;

interface CellAttributes {
  r?: string;
  t?: string;
  s?: string;
}

/** The r, t and s attributes of a cell tag's text; null when it has any form the quick scan does not take. */
function quickCellAttributes(text: string): CellAttributes | null {
  const out: CellAttributes = {};
  const n = text.length;
  let i = 0;
  for (;;) {
    while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13)) i++;
    if (i >= n || text.charCodeAt(i) === 47) return out;
    const eq = text.indexOf('=', i);
    if (eq < 0) return null;
    const name = text.slice(i, eq);
    if (!/^[a-zA-Z][\w.-]*(?::[a-zA-Z][\w.-]*)?$/.test(name)) return null;
    const quote = text[eq + 1];
    if (quote !== '"' && quote !== "'") return null;
    const end = text.indexOf(quote, eq + 2);
    if (end < 0) return null;
    const value = text.slice(eq + 2, end);
    if (name === 'r') out.r = value;
    else if (name === 't') out.t = value;
    else if (name === 's') out.s = value;
    // Others are ignored, unless SheetJS would read them as r, t or s (x:r, R, t_x) or find its
    // column in them (SheetJS takes the first "r=" of the cell: an attribute ending in r).
    else if (name.endsWith('r') || /^(?:\w+:)?[rts](?:_|$)/i.test(name)) return null;
    i = end + 1;
  }
}

/** Where the next `<c ` / `<c/` / `<c>` starts at or after `from`, or -1. */
function nextCell(text: string, from: number): number {
  for (let at = text.indexOf('<c', from); at >= 0; at = text.indexOf('<c', at + 2)) {
    const c = text.charCodeAt(at + 2);
    if (c === 32 || c === 47 || c === 62) return at;
  }
  return -1;
}

export class XlsxSheetScan implements SheetScan {
  declaredColumns = 0;
  refColumns = 0;
  clipped = false;
  private cellsWanted = true;
  private declaredRef: string | null = null;
  // SheetJS's guess of the range from the cells read (refguess)
  private firstRow = 2_000_000;
  private lastRow = 0;
  private firstColumn = 2_000_000;
  private lastColumn = 0;
  private rowNumber = 0;
  private lastIndex = -1;

  constructor(
    private readonly book: XlsxBook,
    private readonly entry: yauzl.Entry,
    private readonly rowLimit: number,
  ) {}

  lengthsOnly(): void {
    this.cellsWanted = false;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ScannedRow> {
    const { zip } = this.book;
    let stream: Readable;
    try {
      stream = await openEntry(zip, this.entry);
    } catch (error) {
      throw new Declined(`sheet part: ${(error as Error).message}`);
    }
    let text = '';
    let inRows = false;
    let first = true;
    let stopped = false;
    try {
      for await (const chunk of stream) {
        text += first ? binaryText(chunk as Buffer) : (chunk as Buffer).toString('latin1');
        first = false;
        if (!inRows) {
          const open = SHEET_DATA_OPEN.exec(text);
          if (!open) {
            if (text.length > MAX_SHEET_HEAD) throw new Declined('no rows where expected');
            continue;
          }
          if (!open[0].startsWith('<sheetData')) throw new Declined('a prefixed sheet');
          this.readDimension(text.slice(0, open.index));
          if (open[0].endsWith('/>')) break; // no rows (SheetJS finds no closed sheetData either)
          text = text.slice(open.index + open[0].length);
          inRows = true;
        }
        const close = text.indexOf('</sheetData>');
        const limit = close >= 0 ? close : text.length;
        let from = 0;
        for (let end = text.indexOf('</row>', from); end >= 0 && end < limit; end = text.indexOf('</row>', from)) {
          const row = this.readRow(text.slice(from, end));
          from = end + 6;
          if (row === 'stop') {
            stopped = true;
            break;
          }
          if (row) yield row;
        }
        if (stopped) break;
        if (close >= 0) {
          const row = this.readRow(text.slice(from, close));
          if (row && row !== 'stop') yield row;
          stopped = true;
          break;
        }
        text = text.slice(from);
      }
    } finally {
      stream.destroy();
    }
    if (inRows && !stopped) throw new Declined('unclosed sheet data');
    this.finish();
  }

  private readDimension(head: string): void {
    const at = head.search(/<(?:\w*:)?dimension/);
    if (at <= 0) return;
    const ref = /"(\w*:\w*)"/.exec(head.slice(at, at + 50))?.[1];
    if (ref === undefined) return;
    const columns = rangeEndColumns(ref);
    if (columns === null) {
      if (/^[A-Z]+\d+:[A-Z]+\d+$/.test(ref)) return; // an inverted range: SheetJS ignores it
      throw new Declined('an unusual dimension');
    }
    this.declaredRef = ref;
    this.declaredColumns = columns;
  }

  /** The range SheetJS ends with: the declared one or the guess, cut at the row limit (sheetRows). */
  private finish(): void {
    let endRow: number;
    let endColumn: number;
    if (this.declaredRef !== null) {
      endColumn = this.declaredColumns - 1;
      endRow = rangeEndRow(this.declaredRef);
    } else if (this.lastColumn >= this.firstColumn && this.lastRow >= this.firstRow) {
      endColumn = this.lastColumn;
      endRow = this.lastRow;
    } else {
      return; // no range: refColumns 0
    }
    if (this.rowLimit > 0 && this.rowLimit <= endRow) {
      this.clipped = true;
      if (endColumn > this.lastColumn) endColumn = this.lastColumn;
    }
    this.refColumns = endColumn + 1;
  }

  /** One `<row>…` piece, as parse_ws_xml_data reads it; null for a row without cells, 'stop' past the row limit. */
  private readRow(piece: string): ScannedRow | null | 'stop' {
    const x = piece.trim();
    if (x.length === 0) return null;
    let gt = x.indexOf('>');
    while (gt > 0 && x.charCodeAt(gt - 1) === 47) gt = x.indexOf('>', gt + 1);
    const tagEnd = gt < 0 ? x.length : gt + 1;
    const tagStart = Math.max(0, x.lastIndexOf('<', tagEnd - 1));
    const tag = xmlAttributes(x.slice(tagStart, tagEnd));
    const rowNumber = tag.r != null ? parseInt(tag.r, 10) : this.rowNumber + 1;
    if (!Number.isInteger(rowNumber) || rowNumber <= this.rowNumber) throw new Declined('rows out of order');
    this.rowNumber = rowNumber;
    if (this.rowLimit > 0 && this.rowLimit < rowNumber) return 'stop';
    const index = rowNumber - 1;
    if (this.firstRow > index) this.firstRow = index;
    if (this.lastRow < index) this.lastRow = index;
    let at = nextCell(x, tagEnd);
    if (x.slice(tagEnd, at < 0 ? x.length : at).trim() !== '') throw new Declined('text before the first cell');
    if (x.includes(':c') && /<\w+:c[ />]/.test(x)) throw new Declined('prefixed cells');
    const cells: SheetRow | null = this.cellsWanted ? [] : null;
    let length = 0;
    let column = -1;
    while (at >= 0) {
      const next = nextCell(x, at + 3);
      const cell = this.readCell(x.slice(at + 3, next < 0 ? x.length : next).trim(), index, column, cells !== null);
      at = next;
      if (cell === null) continue;
      column = cell.column;
      if (!cell.placed) continue;
      if (length < column + 1) length = column + 1;
      if (cells) cells[column] = cell.value; // a later cell of the same column wins, as in SheetJS
    }
    if (length === 0) return null;
    if (index <= this.lastIndex) throw new Declined('rows out of order');
    this.lastIndex = index;
    return { index, cells, length };
  }

  /** One cell piece (after `<c`); null for an empty piece. `placed` false: SheetJS skips it (no value). */
  private readCell(x: string, rowIndex: number, previousColumn: number, wanted: boolean): { column: number; placed: boolean; value?: SheetCell } | null {
    if (x.length === 0) return null;
    let attributes: CellAttributes | null;
    let content: string;
    if (x.charCodeAt(0) === 60) {
      attributes = {};
      content = x;
    } else {
      const gt = x.indexOf('>');
      const tagText = gt < 0 ? x : x.slice(0, gt);
      content = gt < 0 ? '' : x.slice(gt + 1);
      attributes = quickCellAttributes(tagText);
      if (attributes === null) throw new Declined('an unusual cell tag');
    }
    let column: number;
    if (attributes.r) {
      const ref = CELL_REFERENCE.exec(attributes.r);
      if (!ref || Number(ref[2]) - 1 !== rowIndex) throw new Declined('an unusual cell reference');
      column = columnIndex(ref[1]);
    } else {
      if (R_ATTRIBUTE.test(x)) throw new Declined('an unusual cell');
      column = previousColumn + 1;
    }
    const { strings, formats, date1904 } = this.book;
    let raw: string | undefined;
    const v = content.indexOf('<v');
    if (v >= 0 && content.charCodeAt(v + 2) === 62 && !content.includes(':v')) {
      const end = content.indexOf('</v>', v + 3);
      if (end >= 0) raw = content.slice(v + 3, end);
    } else if (v >= 0 || content.includes(':v')) {
      raw = matchElement(content, 'v')?.[1];
    }
    const value = raw === undefined || raw === '' ? undefined : unescapeXml(raw);
    const type = attributes.t;
    if (type == null && value === undefined) return { column, placed: false };
    if (this.firstColumn > column) this.firstColumn = column;
    if (this.lastColumn < column) this.lastColumn = column;
    let cell: XlsxCell;
    // indexed by the attribute's text, as SheetJS does ("01" is no index)
    const format =
      formats !== null && attributes.s !== undefined ? ((formats as unknown as Record<string, CellFormat | undefined>)[attributes.s] ?? GENERAL) : GENERAL;
    switch (type || 'n') {
      case 'n':
        if (value === undefined) return { column, placed: false };
        if (!wanted) return { column, placed: true };
        cell = { t: 'n', v: parseFloat(value), format };
        if (format.isDate) {
          // cellDates: a number in a date format is a date, its display formatted from the serial
          const serial = cell.v as number;
          const date = serialDate(serial + (date1904 ? 1462 : 0));
          if (typeof date !== 'number') cell = { t: 'd', v: date, format, serial };
        }
        break;
      case 's': {
        if (value === undefined) return { column, placed: false };
        const index = parseInt(value, 10);
        if (!(index >= 0 && index < strings.length)) throw new Declined('a shared string that is not there');
        if (!wanted) return { column, placed: true };
        cell = { t: 's', v: strings[index], format };
        break;
      }
      case 'str':
        if (!wanted) return { column, placed: true };
        cell = { t: 's', v: value != null ? unescapeXml(utf8Read(value), true) : '', format };
        break;
      case 'inlineStr': {
        const inline = matchElement(content, 'is');
        const text = inline ? stringItemText(inline[1]) : '';
        if (!wanted) return { column, placed: true };
        cell = { t: 's', v: text, format };
        break;
      }
      case 'b':
        if (!wanted) return { column, placed: true };
        cell = { t: 'b', v: xmlBool(value), format };
        break;
      case 'd': {
        if (value === undefined) throw new Declined('a date cell without a date'); // SheetJS fails on the sheet
        if (!wanted) return { column, placed: true };
        const date = isoCellDate(value, date1904);
        cell = { t: 'd', v: date, format, serial: dateSerial(date, date1904) };
        break;
      }
      case 'e':
        if (!wanted) return { column, placed: true };
        cell = { t: 'e', v: value === undefined ? undefined : ERROR_CODES[value], w: value, format, formatted: true };
        break;
      default:
        throw new Declined(`cells of type ${type}`);
    }
    return { column, placed: true, value: cell };
  }
}
