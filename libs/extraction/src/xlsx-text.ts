// SheetJS's (@e965/xlsx 0.20.3) rules for the text of .xlsx parts, ported so that the streaming reader
// (xlsx-reader.ts) reads every value exactly as SheetJS did before it, quirks included: parts are read
// as binary strings (one character per byte) and decoded from UTF-8 only where SheetJS decodes them.

const ENTITIES: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };
const ENTITY = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const ESCAPED_CODE = /_x([\da-fA-F]{4})_/gi;
const NEEDS_UNESCAPE = /[&_]|<!\[CDATA\[/;

function rawUnescape(text: string): string {
  const start = text.indexOf('<![CDATA[');
  if (start === -1) {
    return text
      .replace(
        ENTITY,
        (entity: string, code: string | undefined) =>
          ENTITIES[entity] || String.fromCharCode(parseInt(code as string, entity.indexOf('x') > -1 ? 16 : 10)) || entity,
      )
      .replace(ESCAPED_CODE, (_m: string, code: string) => String.fromCharCode(parseInt(code, 16)));
  }
  const end = text.indexOf(']]>');
  return rawUnescape(text.slice(0, start)) + text.slice(start + 9, end) + rawUnescape(text.slice(end + 3));
}

/** unescapexml: entities, _xHHHH_ codes and CDATA; `xlsx` also turns CRLF into LF. */
export function unescapeXml(text: string, xlsx = false): string {
  const out = NEEDS_UNESCAPE.test(text) ? rawUnescape(text) : text;
  return xlsx && out.indexOf('\r\n') >= 0 ? out.replace(/\r\n/g, '\n') : out;
}

const HIGH_BYTE = /[\u0080-\uffff]/;

/** utf8read: a binary string's bytes decoded as UTF-8. */
export function utf8Read(binary: string): string {
  return HIGH_BYTE.test(binary) ? Buffer.from(binary, 'latin1').toString('utf8') : binary;
}

/** parsexmlbool */
export function xmlBool(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

const ATTRIBUTE = /\s([^"\s?>/]+)\s*=\s*((?:")([^"]*)(?:")|(?:')([^']*)(?:')|([^'">\s]+))/g;

/** parsexmltag: a tag's attributes by local name (a prefix is dropped), later ones winning; [0] is the tag name. */
export function xmlAttributes(tag: string): Record<string, string> {
  const z: Record<string, string> = {};
  let eq = 0;
  for (; eq !== tag.length; ++eq) {
    const c = tag.charCodeAt(eq);
    if (c === 32 || c === 10 || c === 13) break;
  }
  z[0] = tag.slice(0, eq);
  if (eq === tag.length) return z;
  for (const match of tag.match(ATTRIBUTE) ?? []) {
    const cc = match.slice(1);
    let c = 0;
    for (; c !== cc.length; ++c) if (cc.charCodeAt(c) === 61) break;
    let q = cc.slice(0, c).trim();
    while (cc.charCodeAt(c + 1) === 32) ++c;
    const quote = cc.charCodeAt(c + 1) === 34 || cc.charCodeAt(c + 1) === 39 ? 1 : 0;
    const v = cc.slice(c + 1 + quote, cc.length - quote);
    const colon = q.indexOf(':');
    if (colon === -1) {
      if (q.indexOf('_') > 0) q = q.slice(0, q.indexOf('_'));
      z[q] = v;
      z[q.toLowerCase()] = v;
    } else {
      const k = (colon === 5 && q.slice(0, 5) === 'xmlns' ? 'xmlns' : '') + q.slice(colon + 1);
      if (z[k] && q.slice(colon - 3, colon) === 'ext') continue;
      z[k] = v;
      z[k.toLowerCase()] = v;
    }
  }
  return z;
}

/** The tag name without its namespace prefix ("<x:sheet" → "<sheet"). */
export const localTag = (name: string): string => name.replace(/<(\/?)\w+:/, '<$1');

/** tagregex: every tag of a part. */
export const TAG = /<[/?]?[a-zA-Z0-9:_-]+(?:\s+[^"\s?<>/]+\s*=\s*(?:"[^"]*"|'[^']*'|[^'"<>\s=]+))*\s*[/?]?>/gm;

const elementPatterns = new Map<string, [RegExp, RegExp]>();

function patternsOf(tag: string): [RegExp, RegExp] {
  let found = elementPatterns.get(tag);
  if (!found) elementPatterns.set(tag, (found = [new RegExp(`<(?:\\w+:)?${tag}\\b[^<>]*>`, 'g'), new RegExp(`</(?:\\w+:)?${tag}>`, 'g')]));
  return found;
}

/** str_match_xml_ns: the first element `tag` (any prefix) as [whole, content], or null. */
export function matchElement(text: string, tag: string): [string, string] | null {
  const [open, close] = patternsOf(tag);
  open.lastIndex = 0;
  const start = open.exec(text);
  if (!start) return null;
  close.lastIndex = open.lastIndex;
  const end = close.exec(text);
  if (!end) return null;
  return [text.slice(start.index, close.lastIndex), text.slice(open.lastIndex, end.index)];
}

/** str_remove_xml_ns_g: the text without its `tag` elements (null when one is not closed). */
function removeElements(text: string, tag: string): string | null {
  const [open, close] = patternsOf(tag);
  open.lastIndex = 0;
  const out: string[] = [];
  let from = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    out.push(text.slice(from, m.index));
    close.lastIndex = open.lastIndex;
    if (!close.exec(text)) return null;
    from = close.lastIndex;
    open.lastIndex = close.lastIndex;
  }
  out.push(text.slice(from));
  return out.join('');
}

const PLAIN_TEXT = /^\s*<(?:\w+:)?t[^>]*>/;
const TEXT_END = /<\/(?:\w+:)?t>/;
const RICH_RUN = /<(?:\w+:)?r\b[^<>]*>/;
const RUN_TEXTS = /<(?:\w+:)?t\b[^<>]*>([^<]*)<\/(?:\w+:)?t>/g;

/** parse_si's text: a shared or inline string (plain, or rich text runs without phonetic runs); undefined when neither. */
export function stringItemText(x: string): string | undefined {
  if (!x) return '';
  if (PLAIN_TEXT.test(x)) return unescapeXml(utf8Read(x.slice(x.indexOf('>') + 1).split(TEXT_END)[0] || ''), true);
  if (RICH_RUN.test(x)) {
    // str_remove_xml_ns_g's null (an unclosed phonetic run) makes SheetJS throw: the caller declines then.
    const runs = removeElements(x, 'rPh');
    if (runs === null) throw new Error('unclosed phonetic run');
    return unescapeXml(utf8Read((runs.match(RUN_TEXTS) ?? []).join('').replace(TAG, '')), true);
  }
  return undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1900_TIMES = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const TIME_ONLY = /^(\d+):(\d+)(:\d+)?(\.\d+)?$/;
const DATE_ONLY = /^(\d+)-(\d+)-(\d+)$/;
const DATE_TIME = /^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$/;

/** parseDate: the text of an ISO date cell (t="d") as a UTC date. */
export function isoCellDate(text: string, date1904: boolean): Date {
  let m = TIME_ONLY.exec(text);
  if (m) {
    const seconds = (parseInt(m[1], 10) * 60 + parseInt(m[2], 10)) * 60 + (m[3] ? parseInt(m[3].slice(1), 10) : 0);
    return new Date((date1904 ? EPOCH_1904 : EPOCH_1900_TIMES) + seconds * 1000 + (m[4] ? parseInt(`${m[4]}000`.slice(1, 4), 10) : 0));
  }
  m = DATE_ONLY.exec(text);
  if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 0, 0, 0, 0));
  m = DATE_TIME.exec(text);
  if (m)
    return new Date(
      Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], (m[6] && parseInt(m[6].slice(1), 10)) || 0, (m[7] && parseInt(`${m[7]}0000`.slice(1, 4), 10)) || 0),
    );
  return new Date(text);
}

/** datenum: a date as an Excel serial (1900 or 1904 system). */
export function dateSerial(date: Date, date1904: boolean): number {
  const days = (date.getTime() - EPOCH_1900) / DAY_MS;
  if (date1904) return days - 1462 < -1402 ? days - 1463 : days - 1462;
  return days < 60 ? days - 1 : days;
}
