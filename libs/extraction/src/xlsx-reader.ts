// .xlsx read as a stream: the zip's small parts (content types, workbook, relationships, styles) and the
// shared string table are read first, then each sheet's XML is inflated and scanned row by row, so a
// workbook never sits in memory as cells. Every value, display text and sheet range comes out as
// SheetJS (@e965/xlsx, with extraction's read options) made it: the rules are ported from it
// (xlsx-text.ts), and any form this reader does not read the way SheetJS does (namespace prefixes, .xlsb,
// rows out of order, a missing part...) makes it decline, and the caller hands the
// workbook to SheetJS. xlsx-reader.spec.ts compares both on every workbook it can find or make.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { entryName, nextEntry, openEntry, openZip } from './zip';
import { dateSerial, isoCellDate, localTag, matchElement, stringItemText, TAG, unescapeXml, utf8Read, xmlAttributes, xmlBool } from './xlsx-text';

/** This reader leaves the workbook to SheetJS. */
export class Declined extends Error {}

/** A cell as SheetJS's dense sheets hold it: type, value and (lazily, see displayOf) its display text. */
export interface SheetCell {
  t: 'n' | 's' | 'b' | 'e' | 'd';
  v: string | number | boolean | Date | undefined;
  w?: string;
}

export type SheetRow = Array<SheetCell | undefined>;

/** A row of a sheet: its 0-based index, its cells (null once only lengths are asked for) and its length. */
export interface ScannedRow {
  index: number;
  cells: SheetRow | null;
  length: number;
}

/** One reading of a sheet's rows, in order. */
export interface SheetScan extends AsyncIterable<ScannedRow> {
  /** Columns of the range the sheet declares (0 when none); known once the first row came. */
  readonly declaredColumns: number;
  /** After the last row: columns of SheetJS's `!ref` (declared, else guessed from the cells; cut at the row limit). */
  readonly refColumns: number;
  /** After the last row: the row limit cut the range (SheetJS's `!fullref`). */
  readonly clipped: boolean;
  /** From now on rows come without their cells (their lengths still count). */
  lengthsOnly(): void;
}

export interface WorkbookSheet {
  name: string;
  scan(): SheetScan;
}

// SheetJS's built-in number formats (SSF_init_table) and those it assumes for ids a workbook uses
// without defining them (SSFImplicit).
export const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
  56: '"上午/下午 "hh"時"mm"分"ss"秒 "',
};
const IMPLICIT_FORMATS: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  23: 'General',
  24: 'General',
  25: 'General',
  26: 'General',
  27: 'm/d/yy',
  28: 'm/d/yy',
  29: 'm/d/yy',
  30: 'm/d/yy',
  31: 'm/d/yy',
  32: 'h:mm:ss',
  33: 'h:mm:ss',
  34: 'h:mm:ss',
  35: 'h:mm:ss',
  36: 'm/d/yy',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
  50: 'm/d/yy',
  51: 'm/d/yy',
  52: 'm/d/yy',
  53: 'm/d/yy',
  54: 'm/d/yy',
  55: 'm/d/yy',
  56: 'm/d/yy',
  57: 'm/d/yy',
  58: 'm/d/yy',
  59: '0',
  60: '0.00',
  61: '#,##0',
  62: '#,##0.00',
  63: '"$"#,##0_);\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  67: '0%',
  68: '0.00%',
  69: '# ?/?',
  70: '# ??/??',
  71: 'm/d/yy',
  72: 'm/d/yy',
  73: 'd-mmm-yy',
  74: 'd-mmm',
  75: 'mmm-yy',
  76: 'h:mm',
  77: 'h:mm:ss',
  78: 'm/d/yy h:mm',
  79: 'mm:ss',
  80: '[h]:mm:ss',
  81: 'mmss.0',
};
/** Formats third-party tools write wrongly, as SheetJS corrects them. */
export const BAD_FORMATS: Record<string, string> = { 'd.m': 'd\\.m' };
export const ERROR_CODES: Record<string, number> = {
  '#NULL!': 0x00,
  '#DIV/0!': 0x07,
  '#VALUE!': 0x0f,
  '#REF!': 0x17,
  '#NAME?': 0x1d,
  '#NUM!': 0x24,
  '#N/A': 0x2a,
  '#GETTING_DATA': 0x2b,
  '#WTF?': 0xff,
};
const WORKSHEET_RELATIONS = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet',
];
const MAIN_NAMESPACES = [
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
  'http://schemas.microsoft.com/office/excel/2006/main',
  'http://schemas.microsoft.com/office/excel/2006/2',
];
const CONTENT_TYPES_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/content-types';
const WORKBOOK_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
  'application/vnd.ms-excel.sheet.binary.macroEnabled.main',
  'application/vnd.ms-excel.addin.macroEnabled.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml',
]);
const SHARED_STRINGS_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml',
  'application/vnd.ms-excel.sharedStrings',
]);
const STYLES_TYPES = new Set(['application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml', 'application/vnd.ms-excel.styles']);
/** More text than this before a sheet's rows start is not a sheet this reader knows. */
const MAX_SHEET_HEAD = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_EPOCH = Date.UTC(1899, 11, 30);

type Ssf = { format(format: string, value: unknown, options?: object): string; is_date(format: string): boolean };

interface CellFormat {
  id: number;
  code: string;
  isDate: boolean;
}

interface XlsxCell extends SheetCell {
  format: CellFormat;
  /** The date serial a date cell was read from: its display text is formatted from it. */
  serial?: number;
  formatted?: boolean;
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

/** A part as SheetJS reads it: a binary string. UTF-16 parts SheetJS converts first: declined. */
function binaryText(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[1] === 0xfe && bytes[2] === 0xff)) throw new Declined('a UTF-16 part');
  return bytes.toString('latin1');
}

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The number formats of styles.xml by cell format (xf) index, as SheetJS resolves them. */
function readStyles(text: string, ssf: Ssf): CellFormat[] | null {
  if (text.includes('<!--') || text.slice(0, 1024).includes('<!DOCTYPE')) throw new Declined('comments in styles');
  const numberFormats = new Map<number, string>(Object.entries(BUILT_IN_FORMATS).map(([id, code]) => [Number(id), code]));
  const table = new Map(numberFormats);
  const numFmts = matchElement(text, 'numFmts');
  for (const tag of numFmts?.[0].match(TAG) ?? []) {
    const y = xmlAttributes(tag);
    if (localTag(y[0]) !== '<numFmt') continue;
    const code = unescapeXml(utf8Read(y.formatCode ?? ''));
    let id = parseInt(y.numFmtId, 10);
    if (!Number.isInteger(id) || y.formatCode === undefined) throw new Declined('an odd number format');
    numberFormats.set(id, code);
    if (id > 0) {
      if (id > 0x188) {
        for (id = 0x188; id > 0x3c; --id) if (numberFormats.get(id) == null) break;
        numberFormats.set(id, code);
      }
      table.set(id, BAD_FORMATS[code] ?? code);
    }
  }
  const cellXfs = matchElement(text, 'cellXfs');
  if (!cellXfs) return null;
  const formats: CellFormat[] = [];
  const byId = new Map<number, CellFormat>();
  for (const tag of cellXfs[0].match(TAG) ?? []) {
    const y = xmlAttributes(tag);
    const name = localTag(y[0]);
    if (name !== '<xf' && name !== '<xf/>' && name !== '<xf>') continue;
    let id = 0;
    if (y.numFmtId) {
      id = parseInt(y.numFmtId, 10);
      if (!Number.isInteger(id)) throw new Declined('an odd number format id');
      // loose, as SheetJS compares: an id it never defined takes the first free slot (undefined == undefined)
      if (id > 0x188)
        for (let i = 0x188; i > 0x3c; --i)
          if (numberFormats.get(id) == numberFormats.get(i)) {
            id = i;
            break;
          }
    } else if (y.numFmtId !== undefined) throw new Declined('an empty number format id');
    let format = byId.get(id);
    if (!format) {
      const code = table.get(id) ?? IMPLICIT_FORMATS[id] ?? 'General';
      byId.set(id, (format = { id, code, isDate: ssf.is_date(code) }));
    }
    formats.push(format);
  }
  return formats;
}

interface Part {
  entry: yauzl.Entry;
}

/** An .xlsx opened for streaming; null when it is not one this reader reads (SheetJS takes it). */
export class XlsxWorkbook {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly ssf: Ssf,
    readonly sheets: WorkbookSheet[],
    private readonly strings: Array<string | undefined>,
    private readonly formats: CellFormat[] | null,
    private readonly date1904: boolean,
  ) {}

  /** Opens the workbook; throws Declined when SheetJS should read it. `rowLimit`: SheetJS's sheetRows (0: all). */
  static async open(buffer: Buffer, rowLimit: number, ssf: Ssf): Promise<XlsxWorkbook> {
    let zip: yauzl.ZipFile;
    try {
      zip = await openZip((cb) => yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false }, cb));
    } catch (error) {
      throw new Declined(`zip: ${(error as Error).message}`);
    }
    try {
      const parts = new Map<string, Part>();
      for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
        const name = entryName(entry).toLowerCase().replace(/\\/g, '/');
        if (parts.has(name)) throw new Declined('a part twice');
        parts.set(name, { entry });
      }
      const text = async (name: string): Promise<string | null> => {
        const part = parts.get(name.toLowerCase());
        return part ? binaryText(await readStream(await openEntry(zip, part.entry))) : null;
      };
      if (parts.has('meta-inf/manifest.xml') || parts.has('objectdata.xml') || parts.has('index/document.iwa')) throw new Declined('not Office Open XML');
      const contentTypes = await text('[Content_Types].xml');
      if (contentTypes === null || !contentTypes.includes(`"${CONTENT_TYPES_NAMESPACE}"`)) throw new Declined('no content types');
      const overrides = (type: Set<string>): string[] =>
        (contentTypes.match(TAG) ?? [])
          .map(xmlAttributes)
          .filter((y) => y[0].replace(/<\w*:/, '<') === '<Override' && type.has(y.ContentType))
          .map((y) => y.PartName.replace(/^\//, ''));
      const workbooks = overrides(WORKBOOK_TYPES);
      if (workbooks.length > 1 || (workbooks.length === 1 && workbooks[0] !== 'xl/workbook.xml')) throw new Declined('an unusual workbook part');
      const workbook = await text('xl/workbook.xml');
      if (workbook === null) throw new Declined('no xl/workbook.xml');
      const { sheets, date1904 } = readWorkbook(workbook);
      const relations = await text('xl/_rels/workbook.xml.rels');
      if (relations === null) throw new Declined('no workbook relationships');
      const targets = readRelations(relations);
      const stylesPart = overrides(STYLES_TYPES)[0];
      const stylesText = stylesPart ? await text(stylesPart) : null;
      if (stylesPart && stylesText === null) throw new Declined('a listed styles part is missing'); // SheetJS fails then
      const formats = stylesText === null ? null : readStyles(stylesText, ssf);
      const stringsPart = overrides(SHARED_STRINGS_TYPES)[0];
      const strings =
        stringsPart && parts.has(stringsPart.toLowerCase())
          ? await readSharedStrings(await openEntry(zip, (parts.get(stringsPart.toLowerCase()) as Part).entry))
          : [];
      const book = new XlsxWorkbook(zip, ssf, [], strings, formats, date1904);
      for (const sheet of sheets) {
        const relation = targets.get(sheet.id);
        if (!relation || (relation.type && !WORKSHEET_RELATIONS.includes(relation.type))) throw new Declined('a sheet that is not a worksheet');
        let path = `xl/${relation.target.replace(/[/]?xl\//, '')}`;
        if (!parts.has(path.toLowerCase())) path = relation.target;
        if (!parts.has(path.toLowerCase())) path = `xl/${relation.target}`;
        const part = parts.get(path.toLowerCase());
        if (!part || path.toLowerCase().endsWith('.bin')) throw new Declined('a missing or binary sheet part');
        book.sheets.push({ name: sheet.name, scan: () => new XlsxSheetScan(book, part.entry, rowLimit) });
      }
      if (book.sheets.length === 0) throw new Declined('no sheets');
      return book;
    } catch (error) {
      zip.close();
      throw error instanceof Declined ? error : new Declined((error as Error).message);
    }
  }

  close(): void {
    this.zip.close();
  }

  /** The cell's display text (SheetJS's `.w`), formatted on first use: only shown cells need it. */
  displayOf(cell: SheetCell): string | undefined {
    const own = cell as XlsxCell;
    if (own.formatted || cell.t === 'e') return cell.w;
    own.formatted = true;
    const value = own.serial ?? cell.v;
    if (own.format.id === 0 && value === undefined) return undefined;
    try {
      own.w = this.ssf.format(own.format.id === 0 ? 'General' : own.format.code, value, { date1904: this.date1904 });
    } catch {
      own.w = undefined; // SheetJS leaves .w unset when its formatter throws
    }
    return own.w;
  }

  /** @internal the scanner's view of the workbook */
  get context(): { zip: yauzl.ZipFile; strings: Array<string | undefined>; formats: CellFormat[] | null; date1904: boolean } {
    return { zip: this.zip, strings: this.strings, formats: this.formats, date1904: this.date1904 };
  }
}

function readWorkbook(text: string): { sheets: Array<{ name: string; id: string }>; date1904: boolean } {
  const sheets: Array<{ name: string; id: string }> = [];
  let date1904 = false;
  let namespace: string | undefined;
  for (const tag of text.match(TAG) ?? []) {
    const y = xmlAttributes(tag);
    const name = localTag(y[0]);
    if (name === '<workbook') {
      if (/<\w+:/.test(tag)) throw new Declined('a prefixed workbook');
      namespace = y.xmlns;
    } else if (name === '<workbookPr' || name === '<workbookPr/>') {
      if (y.date1904 !== undefined) date1904 = xmlBool(y.date1904);
    } else if (name === '<sheet') {
      sheets.push({ name: unescapeXml(utf8Read(y.name ?? '')), id: y.id ?? y.strRelID });
    }
  }
  if (!namespace || !MAIN_NAMESPACES.includes(namespace)) throw new Declined('an unknown workbook namespace');
  return { sheets, date1904 };
}

function readRelations(text: string): Map<string, { target: string; type: string }> {
  const relations = new Map<string, { target: string; type: string }>();
  for (const tag of text.match(TAG) ?? []) {
    const y = xmlAttributes(tag);
    if (y[0] === '<Relationship') relations.set(y.Id, { target: unescapeXml(y.Target ?? ''), type: y.Type ?? '' });
  }
  return relations;
}

const SHARED_STRINGS_OPEN = /<(?:\w+:)?sst\b[^<>]*>/;
const STRING_ITEM_OPEN = /<(?:\w+:)?(?:si|sstItem)>/g;

/** The shared string table, held (cells refer to it by index), read from its stream piece by piece. */
async function readSharedStrings(stream: Readable): Promise<Array<string | undefined>> {
  const strings: Array<string | undefined> = [];
  let text = '';
  let started = false;
  let first = true;
  for await (const chunk of stream) {
    text += first ? binaryText(chunk as Buffer) : (chunk as Buffer).toString('latin1');
    first = false;
    if (!started) {
      const open = SHARED_STRINGS_OPEN.exec(text);
      if (!open) continue;
      if (open[0].startsWith('<sst') === false) throw new Declined('prefixed shared strings');
      text = text.slice(open.index + open[0].length);
      started = true;
    }
    let from = 0;
    for (let end = text.indexOf('</si>', from); end >= 0; end = text.indexOf('</si>', from)) {
      strings.push(stringItemText(text.slice(from, end).replace(STRING_ITEM_OPEN, '').trim()));
      from = end + 5;
    }
    text = text.slice(from);
    if (text.includes('sstItem') || text.includes(':si>')) throw new Declined('unusual shared strings');
  }
  const close = text.indexOf('</sst>');
  if (!started || close < 0) throw new Declined('unclosed shared strings');
  strings.push(stringItemText(text.slice(0, close).replace(STRING_ITEM_OPEN, '').trim()));
  return strings;
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

class XlsxSheetScan implements SheetScan {
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
    private readonly book: XlsxWorkbook,
    private readonly entry: yauzl.Entry,
    private readonly rowLimit: number,
  ) {}

  lengthsOnly(): void {
    this.cellsWanted = false;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ScannedRow> {
    const { zip } = this.book.context;
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
    const { strings, formats, date1904 } = this.book.context;
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
