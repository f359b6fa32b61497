// The parts of an .xlsx read before its sheets, as SheetJS reads them: the workbook (its sheets and
// date system), its relationships, the number formats of its styles and the shared string table.
import type { Readable } from 'node:stream';
import { builtInFormatTable, BAD_FORMATS, type CellFormat, IMPLICIT_FORMATS, type Ssf } from './cell-formats';
import { Declined } from './sheet-scan';
import { localTag, matchElement, stringItemText, TAG, unescapeXml, utf8Read, xmlAttributes, xmlBool } from './xlsx-text';

const MAIN_NAMESPACES = [
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
  'http://schemas.microsoft.com/office/excel/2006/main',
  'http://schemas.microsoft.com/office/excel/2006/2',
];
/** A part as SheetJS reads it: a binary string. UTF-16 parts SheetJS converts first: declined. */
export function binaryText(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[1] === 0xfe && bytes[2] === 0xff)) throw new Declined('a UTF-16 part');
  return bytes.toString('latin1');
}

export async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The number formats of styles.xml by cell format (xf) index, as SheetJS resolves them. */
export function readStyles(text: string, ssf: Ssf): CellFormat[] | null {
  if (text.includes('<!--') || text.slice(0, 1024).includes('<!DOCTYPE')) throw new Declined('comments in styles');
  const numberFormats = builtInFormatTable();
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

export function readWorkbook(text: string): { sheets: Array<{ name: string; id: string }>; date1904: boolean } {
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

export function readRelations(text: string): Map<string, { target: string; type: string }> {
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
export async function readSharedStrings(stream: Readable): Promise<Array<string | undefined>> {
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
