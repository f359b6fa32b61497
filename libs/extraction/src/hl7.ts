// HL7 v2 (ER7, pipe-delimited): every segment is a row, every field position seen ("PID-5") is a
// column of the segments of its type; the encoding characters come from each MSH. Streamed segment
// by segment, so a large batch file is read in flat memory.
import type { Readable } from 'node:stream';
import { ColumnAccumulator } from './column';
import type { ColumnContext } from './column-figures';
import { type ColumnPolicy, PLAIN } from './private-columns';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError } from './errors';
import { TextChunkDecoder, toBytes } from './io';
import { ErrorList } from './table';
import type { ColumnStats, FileTable, Hl7Info, ShareFormatEntry } from './types';
import { isMeaningful, keywordsOf, TopWords, words } from './words';

const SEGMENT_NAME = /^[A-Z][A-Z0-9]{2}$/;

interface Column {
  segment: string;
  field: number;
  acc: ColumnAccumulator;
  policy: ColumnPolicy;
}

class Hl7Table {
  readonly errors: ErrorList;
  readonly info: Hl7Info = { MESSAGES: 0, VERSION: null, MESSAGE_TYPES: [], SEGMENTS: {} };
  segments = 0;
  private separator: string | null = null;
  private readonly columns = new Map<string, Column>();
  /** Per segment type, its known field numbers (ascending). */
  private readonly fieldsOf = new Map<string, number[]>();
  private readonly order: string[] = [];
  private readonly ctx: ColumnContext;
  private tooManyColumns = false;

  constructor(private readonly extractor: ExtractorContext) {
    const { limits } = extractor;
    this.errors = new ErrorList(limits.maxErrors);
    this.ctx = { option: extractor.option, limits, decimalComma: false, distinctCap: Math.max(1000, Math.floor(limits.maxDistinctTracked / 200)) };
  }

  addSegment(line: string, lineNumber: number): void {
    const name = line.slice(0, 3);
    const isHeader = name === 'MSH' || name === 'FHS' || name === 'BHS';
    if (isHeader) this.separator = line[3] ?? '|';
    if (SEGMENT_NAME.test(name) && this.separator === null) {
      this.errors.add(`Line ${lineNumber}: segment ${name} before any MSH segment is ignored`);
      return;
    }
    if (!SEGMENT_NAME.test(name) || (!isHeader && line.length > 3 && line[3] !== this.separator)) {
      this.errors.add(`Line ${lineNumber} is not an HL7 segment: "${line.slice(0, 20)}"`);
      return;
    }
    const separator = this.separator as string;
    const parts = line.split(separator);
    // MSH-1 is the field separator itself, so MSH-n is parts[n - 1]; for other segments SEG-n is parts[n].
    const values = new Map<number, string>();
    if (isHeader) {
      values.set(1, separator);
      for (let i = 1; i < parts.length; i++) values.set(i + 1, parts[i]);
    } else {
      for (let i = 1; i < parts.length; i++) values.set(i, parts[i]);
    }
    if (name === 'MSH') {
      this.info.MESSAGES++;
      const type = values.get(9);
      if (type && !this.info.MESSAGE_TYPES.includes(type) && this.info.MESSAGE_TYPES.length < 50) this.info.MESSAGE_TYPES.push(type);
      if (this.info.VERSION === null && values.get(12)) this.info.VERSION = values.get(12) as string;
    }
    this.segments++;
    const seen = (this.info.SEGMENTS[name] = (this.info.SEGMENTS[name] ?? 0) + 1);
    let known = this.fieldsOf.get(name);
    if (!known) {
      known = [];
      this.fieldsOf.set(name, known);
      this.order.push(name);
    }
    for (const [field, value] of values) {
      if (value.trim() === '' || known.includes(field)) continue;
      if (this.columns.size >= this.extractor.limits.maxColumns) {
        this.tooManyColumns = true;
        continue;
      }
      // A new field of a known segment: its earlier segments lacked it. Private columns go by name
      // here: positions are known only once every segment type was seen.
      const header = `${name}-${field}`;
      const policy = this.extractor.privacy?.policyFor(header) ?? PLAIN;
      const acc = new ColumnAccumulator(this.ctx, policy);
      for (let i = 1; i < seen; i++) acc.add(null);
      this.columns.set(header, { segment: name, field, acc, policy });
      known.push(field);
      known.sort((a, b) => a - b);
    }
    for (const field of known) (this.columns.get(`${name}-${field}`) as Column).acc.add(values.get(field) ?? null);
  }

  build(): { file: FileTable; keywords: string[]; formats: ShareFormatEntry[]; hashed: string[] } {
    if (this.tooManyColumns) this.errors.add(`More than ${this.extractor.limits.maxColumns} field positions: the rest are not described (maxColumns)`);
    const headers: string[] = [];
    const stats: Record<string, ColumnStats> = {};
    const formats: ShareFormatEntry[] = [];
    const hashed: string[] = [];
    const counter = new TopWords(this.extractor.limits.maxWords * 4);
    for (const segment of this.order) {
      for (const field of this.fieldsOf.get(segment) ?? []) {
        const header = `${segment}-${field}`;
        const column = this.columns.get(header) as Column;
        const { format, hash } = column.policy;
        if (format === 'exclude') continue;
        formats.push({ index: headers.length, format, hash: hash !== null });
        if (hash) hashed.push(header);
        stats[String(headers.length)] = column.acc.stats();
        headers.push(header);
        for (const [word, count] of column.acc.wordCounts()) counter.add(word, count);
      }
    }
    for (const segment of this.order) for (const word of words(segment)) if (isMeaningful(word)) counter.add(word);
    return {
      file: { HEADERS: headers, TOTAL_ROWS: this.segments, STATS: stats },
      keywords: keywordsOf(counter, this.extractor.limits.maxKeywords),
      formats,
      hashed,
    };
  }
}

export async function extractHl7(stream: Readable, ctx: ExtractorContext): Promise<Extracted> {
  const decoder = new TextChunkDecoder();
  const table = new Hl7Table(ctx);
  let bytes = 0;
  let pending = '';
  let lineNumber = 0;
  let longLines = 0;
  let skipping = false;
  const take = (input: string, final: boolean): void => {
    let text = input;
    if (skipping) {
      const nl = text.search(/[\r\n]/);
      if (nl === -1) return;
      skipping = false;
      text = text.slice(nl + 1);
    }
    const lines = (pending + text).split(/\r\n|\r|\n/);
    pending = final ? '' : (lines.pop() ?? '');
    if (pending.length > ctx.limits.maxLineBytes) {
      // A segment this long is not HL7: skipped up to its line end, never held.
      longLines++;
      lineNumber++;
      pending = '';
      skipping = true;
    }
    for (const line of lines) {
      lineNumber++;
      const segment = line.replace(/^[\s\u000b\u001c]+|[\s\u001c]+$/g, ''); // MLLP framing bytes, blanks
      if (segment !== '') table.addSegment(segment, lineNumber);
    }
  };
  for await (const chunk of stream) {
    const data = toBytes(chunk);
    bytes += data.length;
    take(decoder.decode(data), false);
  }
  take(decoder.end(), true);
  if (bytes === 0) throw new CorruptFileError('The file is empty');
  if (table.info.MESSAGES === 0) throw new CorruptFileError('Not an HL7 v2 message: no MSH segment');
  const { file, keywords, formats, hashed } = table.build();
  const errors: string[] = [];
  const problem = decoder.problem();
  if (problem) errors.push(problem);
  if (longLines) errors.push(`${longLines} segments longer than ${ctx.limits.maxLineBytes} characters (maxLineBytes) were skipped`);
  errors.push(...table.errors.list());
  return {
    STATUS: 'complete',
    FILE: file,
    HL7: table.info,
    KEYWORDS: keywords,
    SAMPLES: ctx.option === 'samples' ? 'real' : 'synthetic',
    ...(ctx.privacy && { ENCRYPTED_COLS: hashed, SHARE_FORMATS: formats }),
    ERRORS: errors,
    bytesRead: bytes,
  };
}
