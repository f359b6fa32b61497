// .xlsx read as a stream: the zip's small parts (content types, workbook, relationships, styles) and the
// shared string table are read first, then each sheet's XML is inflated and scanned row by row, so a
// workbook never sits in memory as cells. Every value, display text and sheet range comes out as
// SheetJS (@e965/xlsx, with extraction's read options) made it: the rules are ported from it
// (xlsx-text.ts), and any form this reader does not read the way SheetJS does (namespace prefixes, .xlsb,
// rows out of order, a missing part...) makes it decline, and the caller hands the
// workbook to SheetJS. xlsx-reader.spec.ts compares both on every workbook it can find or make.
// Here, the zip and its parts; they are read in xlsx-parts.ts, each sheet in xlsx-sheet.ts.
import yauzl from 'yauzl';
import { type CellFormat, displayText, type Ssf } from './cell-formats';
import { Declined, type SheetCell, type WorkbookSheet } from './sheet-scan';
import { entryName, nextEntry, openEntry, openZip } from './zip';
import { binaryText, readRelations, readSharedStrings, readStream, readStyles, readWorkbook } from './xlsx-parts';
import { type XlsxBook, type XlsxCell, XlsxSheetScan } from './xlsx-sheet';
import { TAG, xmlAttributes } from './xlsx-text';

const WORKSHEET_RELATIONS = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet',
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
        book.sheets.push({ name: sheet.name, scan: () => new XlsxSheetScan(book.context, part.entry, rowLimit) });
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
    return displayText(cell as XlsxCell, this.ssf, this.date1904);
  }

  /** @internal the scanner's view of the workbook */
  get context(): XlsxBook {
    return { zip: this.zip, strings: this.strings, formats: this.formats, date1904: this.date1904 };
  }
}
