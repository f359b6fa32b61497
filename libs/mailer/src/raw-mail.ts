/**
 * A small RFC 5322 / MIME reader for tests (mailparser is not installed): unfolds headers, decodes
 * RFC 2047 encoded words, and finds the text/plain and text/html bodies of a single-part or
 * multipart message, undoing quoted-printable and base64.
 */
export interface ParsedMail {
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
}

export function parseRawMail(raw: string): ParsedMail {
  const entity = parseEntity(raw);
  const bodies: { text?: string; html?: string } = {};
  collectBodies(entity, bodies);
  const header = (name: string) => entity.headers.get(name) ?? '';
  return { headers: entity.headers, from: header('from'), to: header('to'), subject: header('subject'), ...bodies };
}

interface Entity {
  headers: Map<string, string>;
  /** Header values with encoded words left as sent (for parameters such as boundary). */
  rawHeaders: Map<string, string>;
  body: string;
}

function parseEntity(raw: string): Entity {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const head = split >= 0 ? text.slice(0, split) : text;
  const body = split >= 0 ? text.slice(split + 2) : '';
  const headers = new Map<string, string>();
  const rawHeaders = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`Malformed header line: ${JSON.stringify(line)}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    rawHeaders.set(name, value);
    headers.set(name, decodeEncodedWords(value));
  }
  return { headers, rawHeaders, body };
}

function collectBodies(entity: Entity, into: { text?: string; html?: string }): void {
  const contentType = entity.rawHeaders.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error(`Multipart without boundary: ${contentType}`);
    // The line break before a delimiter belongs to the delimiter, not to the part (RFC 2046).
    const parts = `\n${entity.body}`.split(`\n--${boundary}`);
    // parts[0] is the preamble; the last part starts with the closing "--".
    for (const part of parts.slice(1)) {
      if (part.startsWith('--')) break;
      collectBodies(parseEntity(part.replace(/^\n/, '')), into);
    }
    return;
  }
  const decoded = decodeBody(entity.body, entity.headers.get('content-transfer-encoding') ?? '7bit');
  if (type === 'text/plain' && into.text === undefined) into.text = decoded;
  if (type === 'text/html' && into.html === undefined) into.html = decoded;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body.replace(/=\n/g, ''));
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text.
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
