// CSV/TSV: delimiter and line ending detected on the first lines, then the stream is cut at record
// boundaries (quote-aware, so quoted newlines stay inside their record) and each complete slice is
// parsed by papaparse. Only one unfinished record is ever held, and it is bounded by maxLineBytes,
// so memory stays flat however large the file is.
import Papa from 'papaparse';
import { classify, isMissingText } from './column';
import type { Extracted, ExtractorContext } from './context';
import { ByteCells, ByteRecords, readByteRecords } from './csv-bytes';
import { readSimpleRecords } from './csv-records';
import { CorruptFileError, ExtractionLimitError } from './errors';
import { EventLoopYield, isBinary, TextChunkDecoder, toBytes } from './io';
import { headerName, TableBuilder } from './table';
import type { CsvInfo } from './types';
import { keywordsOf, TopWords } from './words';

type Delimiter = CsvInfo['DELIMITER'];
const DELIMITERS: Delimiter[] = [',', ';', '\t', '|'];
const QUOTE = '"';
/** Characters read before the dialect is decided (the delimiter and line end found in them). */
export const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_LINES = 7;

/** Splits the start of a file into up to `max` records, honouring quotes. */
function sampleRecords(text: string, max: number): string[] {
  const records: string[] = [];
  let inQuotes = false;
  let start = 0;
  for (let i = 0; i < text.length && records.length < max; i++) {
    const ch = text[i];
    if (ch === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) {
      if (i > start) records.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (records.length < max && start < text.length) records.push(text.slice(start));
  return records.filter((r) => r.trim() !== '');
}

function countOutsideQuotes(record: string, delimiter: string): number {
  let count = 0;
  let inQuotes = false;
  for (const ch of record) {
    if (ch === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && ch === delimiter) count++;
  }
  return count;
}

/**
 * The delimiter whose count is the same on the most of the first 7 records (spec section 9), ties
 * going to the larger count; a .tsv name prefers tab.
 */
export function detectDelimiter(sample: string, fileName = ''): Delimiter {
  const records = sampleRecords(sample, SAMPLE_LINES);
  let best: Delimiter = /\.tsv$/i.test(fileName) ? '\t' : ',';
  let bestScore = [-1, -1];
  for (const delimiter of DELIMITERS) {
    const counts = records.map((r) => countOutsideQuotes(r, delimiter));
    const tally = new Map<number, number>();
    for (const c of counts) if (c > 0) tally.set(c, (tally.get(c) ?? 0) + 1);
    let mode = 0;
    let agreeing = 0;
    for (const [c, n] of tally) if (n > agreeing || (n === agreeing && c > mode)) [mode, agreeing] = [c, n];
    const score = [agreeing, mode];
    if (score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) {
      best = delimiter;
      bestScore = score;
    }
  }
  return bestScore[0] <= 0 && /\.tsv$/i.test(fileName) ? '\t' : best;
}

export function detectLineEnding(sample: string): CsvInfo['LINE_ENDING'] {
  const lf = sample.indexOf('\n');
  if (lf > 0 && sample[lf - 1] === '\r') return '\r\n';
  if (lf >= 0) return '\n';
  return sample.includes('\r') ? '\r' : '\n';
}

/**
 * Scans text that starts at a record start. Returns the end of the last complete record (after its
 * line end) and the length of the longest complete record. A quote opens a quoted field only at a
 * field start and closes only before a delimiter or line end, as papaparse reads them.
 */
export function scanRecords(text: string, delimiter: string, eol: '\n' | '\r'): { end: number; longest: number } {
  let pos = 0;
  let recordStart = 0;
  let end = 0;
  let longest = 0;
  let inQuotes = false;
  while (pos < text.length) {
    if (!inQuotes) {
      const q = text.indexOf(QUOTE, pos);
      const stop = q === -1 ? text.length : q;
      let nl = text.indexOf(eol, pos);
      while (nl !== -1 && nl < stop) {
        longest = Math.max(longest, nl + 1 - recordStart);
        recordStart = end = nl + 1;
        nl = text.indexOf(eol, nl + 1);
      }
      if (q === -1) break;
      const prev = text[q - 1];
      if (q === recordStart || prev === delimiter || prev === '\n' || prev === '\r') inQuotes = true;
      pos = q + 1;
    } else {
      const q = text.indexOf(QUOTE, pos);
      if (q === -1 || q + 1 >= text.length) break; // the field goes on in the next chunk
      if (text[q + 1] === QUOTE) {
        pos = q + 2;
        continue;
      }
      let k = q + 1;
      while (k < text.length && text[k] === ' ') k++;
      if (k >= text.length) break;
      const after = text[k];
      if (after === delimiter || after === '\n' || after === '\r') {
        inQuotes = false;
        pos = k;
      } else pos = q + 1;
    }
  }
  return { end, longest };
}

function isBlank(cells: string[]): boolean {
  for (const cell of cells) if (cell !== '' && cell.trim() !== '') return false;
  return true;
}

/** The first record that is not blank: a header, unless it looks like data; the table's column names either way. */
export function headerOf(cells: string[]): { hasHeader: boolean; headers: string[] } {
  const hasHeader = !looksLikeData(cells);
  return { hasHeader, headers: hasHeader ? cells.map(headerName) : cells.map((_, i) => `Column ${i + 1}`) };
}

function looksLikeData(cells: string[]): boolean {
  const filled = cells.map((c) => c.trim()).filter((c) => !isMissingText(c));
  return (
    filled.length > 0 &&
    filled.every((c) => {
      const kind = classify(c, false).kind;
      return kind === 'integer' || kind === 'float';
    })
  );
}

class StopReading extends Error {}

export interface CsvReading {
  /**
   * 'bytes' (default): readByteRecords reads the bytes of UTF-8 and Windows-1252 files, ASCII cells
   * go to the statistics without becoming strings, and anything it declines is read from there on
   * as 'one-pass' reads it.
   * 'one-pass': the decoded text, read by readSimpleRecords, and by papaparse the texts it declines.
   * 'papaparse': every text goes through the record scan and papaparse (the reference, for tests).
   */
  records?: 'bytes' | 'one-pass' | 'papaparse';
}

/** Where readCsv goes on from, instead of the start of a file (csv-threads.ts, when its blocks cannot be read as bytes). */
export interface CsvResume {
  info: CsvInfo;
  /** Takes the rows (its header known). */
  table: TableBuilder;
  /** Records before the first one read (blank ones and the header included). */
  record: number;
  /** Stream offset of the first byte read: a record start. */
  offset: number;
  /** The decoder of the whole stream so far (where it turned Windows-1252, if it did). */
  decoder: TextChunkDecoder;
}

/** A CSV read to its end (or to a limit), its table not built yet. */
export interface CsvRead {
  info: CsvInfo;
  table: TableBuilder;
  /** Why reading stopped early (a limit), else null. */
  stopped: string | null;
  /** Encoding, stop and parse messages, in META's order. */
  errors: string[];
  bytes: number;
}

export async function extractCsv(stream: ChunkSource, ctx: ExtractorContext, reading: CsvReading = {}): Promise<Extracted> {
  return describeCsv(await readCsv(stream, ctx, reading), ctx);
}

/** What readCsv reads: a byte stream, or the chunks a worker thread is posted (csv-worker.ts). */
export type ChunkSource = AsyncIterable<unknown> & { destroy(): unknown };

/** Reads the records into a TableBuilder, from the start of a file or from where `resume` says. */
export async function readCsv(stream: ChunkSource, ctx: ExtractorContext, reading: CsvReading = {}, resume?: CsvResume): Promise<CsvRead> {
  const onePass = reading.records !== 'papaparse';
  const turns = new EventLoopYield();
  const { limits } = ctx;
  let decoder = resume ? TextChunkDecoder.resumeAt(resume.offset, resume.decoder) : new TextChunkDecoder();
  let bytes = 0;
  let pending = '';
  let info: CsvInfo | null = resume ? { ...resume.info } : null;
  let table: TableBuilder | null = resume?.table ?? null;
  let record = resume?.record ?? 0; // 1-based record number in the file, header included
  let stopped: string | null = null;
  const errors: string[] = [];
  const parseErrors: string[] = [];
  let parseErrorCount = 0;

  /** The first record that is not blank: the header, or the first row when it looks like data. True: it was the header. */
  const begin = (cells: string[]): boolean => {
    const { hasHeader, headers } = headerOf(cells);
    (info as CsvInfo).HAS_HEADER = hasHeader;
    table = new TableBuilder(headers, {
      option: ctx.option,
      limits,
      decimalComma: info?.DELIMITER === ';',
      privacy: ctx.privacy,
      observers: ctx.observers,
      tableName: ctx.fileName,
    });
    return hasHeader;
  };

  const rowAdded = (built: TableBuilder): void => {
    if (limits.maxRowsScanned !== undefined && built.rowCount >= limits.maxRowsScanned) {
      stopped = `Stopped after ${built.rowCount} data rows (maxRowsScanned): statistics describe those rows only`;
      throw new StopReading();
    }
  };

  const onRow = (cells: string[]): void => {
    record++;
    if (isBlank(cells)) return;
    if (!table && begin(cells)) return;
    const built = table as unknown as TableBuilder;
    built.addRow(cells, record);
    rowAdded(built);
  };

  const stopAtLongRecord = (): never => {
    stopped = `Stopped at record ${record + 1}: a record longer than ${limits.maxLineBytes} characters (maxLineBytes), or an unclosed quote`;
    throw new StopReading();
  };

  const parse = (text: string): void => {
    const csv = info as CsvInfo;
    const base = record;
    const result = Papa.parse<string[]>(text, { delimiter: csv.DELIMITER, newline: csv.LINE_ENDING, quoteChar: QUOTE, header: false });
    for (const error of result.errors) {
      parseErrorCount++;
      if (parseErrors.length < limits.maxErrors) parseErrors.push(`Record ${base + (error.row ?? 0) + 1}: ${error.message}`);
    }
    const rows = result.data;
    // A slice ending with its line end yields one empty last row that is not a record.
    const last = rows[rows.length - 1];
    if (last && last.length === 1 && last[0] === '' && /[\r\n]$/.test(text)) rows.pop();
    for (const cells of rows) onRow(cells);
  };

  /** Reads decoded text (the 'one-pass' and 'papaparse' ways). */
  const feed = (text: string, final: boolean): void => {
    const csv = info as CsvInfo;
    const all = pending + text;
    pending = '';
    const simple = onePass ? readSimpleRecords(all, csv.DELIMITER, csv.LINE_ENDING, final) : null;
    const { end, longest } = simple ?? scanRecords(all, csv.DELIMITER, csv.LINE_ENDING === '\r' ? '\r' : '\n');
    if (longest > limits.maxLineBytes || all.length - end > limits.maxLineBytes) stopAtLongRecord();
    if (simple) {
      for (const cells of simple.rows) onRow(cells);
      if (!final) pending = all.slice(end);
      return;
    }
    if (final) {
      if (all !== '') parse(all);
      return;
    }
    if (end > 0) parse(all.slice(0, end));
    pending = all.slice(end);
  };

  // Reading bytes: the records of `carry` (an unfinished record, at stream offset carryAt) and each chunk.
  let asBytes = resume !== undefined && (reading.records ?? 'bytes') === 'bytes';
  let carry: Buffer = Buffer.alloc(0);
  let carryAt = resume?.offset ?? 0;
  const records = new ByteRecords();
  // The carried record and the next chunk are read from one buffer, reused (allocating one per chunk costs more than reading it).
  let work = Buffer.alloc(0);
  const joined = (first: Uint8Array, second: Uint8Array): Buffer => {
    const length = first.length + second.length;
    if (work.length < length) work = Buffer.allocUnsafe(Math.max(length, 2 * work.length));
    work.set(first, 0);
    work.set(second, first.length);
    return work.subarray(0, length);
  };

  /** From a record that readByteRecords declines on, the text is read as 'one-pass' reads it. */
  const readAsTextFrom = (piece: Buffer, offset: number, final: boolean): void => {
    asBytes = false;
    decoder = TextChunkDecoder.resumeAt(offset, decoder);
    feed(decoder.decode(piece), false);
    if (final) feed(decoder.end(), true);
  };

  const feedBytes = (chunk: Uint8Array, final: boolean): void => {
    const piece = carry.length === 0 ? bufferOf(chunk) : joined(carry, chunk);
    const offset = carryAt;
    const csv = info as CsvInfo;
    if (!readByteRecords(piece, 0, piece.length, csv.DELIMITER.charCodeAt(0), csv.LINE_ENDING, final, records)) {
      carry = Buffer.alloc(0);
      return readAsTextFrom(piece, offset, final);
    }
    const cells = new ByteCells(piece, records, offset, decoder.windows1252From);
    // Limits count characters, as the text reader does; a byte count is an upper bound of them.
    const max = limits.maxLineBytes;
    if (records.longest > max) {
      for (let r = 0; r < records.count; r++) {
        const start = records.recordStart[r];
        const end = records.recordEnd[r];
        if (end - start > max && end <= records.end && cells.textLength(start, end, true) > max) stopAtLongRecord();
      }
    }
    if (piece.length - records.end > max && cells.textLength(records.end, piece.length, final) > max) stopAtLongRecord();
    for (let r = 0; r < records.count; r++) {
      record++;
      if (cells.isBlank(r)) continue;
      if (table) {
        table.addByteRow(cells, r, record);
        rowAdded(table);
        continue;
      }
      const row = cells.row(r);
      if (begin(row)) continue;
      const built = table as unknown as TableBuilder;
      built.addRow(row, record);
      rowAdded(built);
    }
    // A copy: the chunk's memory may be reused once the next one is asked for (csv-worker.ts).
    carry = final ? Buffer.alloc(0) : Buffer.from(piece.subarray(records.end));
    carryAt = offset + records.end;
  };

  let head = '';
  const headBytes: Uint8Array[] = [];
  const start = (final: boolean): void => {
    info = { DELIMITER: detectDelimiter(head, ctx.fileName), ENCODING: decoder.encoding, HAS_HEADER: true, LINE_ENDING: detectLineEnding(head) };
    const text = head;
    head = '';
    asBytes = (reading.records ?? 'bytes') === 'bytes' && !decoder.encoding.startsWith('utf-16');
    if (!asBytes) return feed(text, final);
    carryAt = decoder.bomLength;
    const all = Buffer.concat(headBytes);
    headBytes.length = 0;
    feedBytes(all.subarray(carryAt), final);
  };

  try {
    for await (const chunk of stream) {
      const data = toBytes(chunk);
      if (bytes === 0 && !resume && isBinary(data)) throw new CorruptFileError('The file holds binary data (NUL bytes), not delimited text');
      bytes += data.length;
      if (!info) {
        head += decoder.decode(data);
        headBytes.push(Buffer.from(data)); // a copy, as carry is
        if (head.length >= SAMPLE_CHARS) start(false);
      } else if (asBytes) {
        decoder.advance(data);
        feedBytes(data, false);
      } else feed(decoder.decode(data), false);
      await turns.maybe();
    }
    if (!info) {
      head += decoder.end();
      start(true);
    } else if (asBytes) {
      decoder.advanceEnd();
      feedBytes(new Uint8Array(0), true);
    } else feed(decoder.end(), true);
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
    stream.destroy();
  }

  const encodingProblem = decoder.problem();
  if (encodingProblem) errors.push(encodingProblem);
  if (info) (info as CsvInfo).ENCODING = decoder.encoding;
  if (stopped) errors.push(stopped);
  errors.push(...parseErrors);
  if (parseErrorCount > parseErrors.length) errors.push(`… and ${parseErrorCount - parseErrors.length} more parse errors`);

  const built = table as TableBuilder | null;
  if (!built) {
    if (stopped) throw new ExtractionLimitError(stopped);
    throw new CorruptFileError(bytes === 0 ? 'The file is empty' : 'The file holds no records');
  }
  return { info: info as unknown as CsvInfo, table: built, stopped, errors, bytes };
}

/** A chunk as a Buffer over the same memory. */
function bufferOf(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** META of a CSV read by readCsv (its table holding every column by now). */
export function describeCsv({ info, table: built, stopped, errors: readErrors, bytes }: CsvRead, ctx: ExtractorContext): Extracted {
  const { limits } = ctx;
  const errors = [...readErrors];
  const file = built.build();
  errors.push(...built.errors.list());
  const counter = new TopWords(limits.maxWords * 4);
  built.addWordsTo(counter);
  return {
    STATUS: stopped ? 'partial' : 'complete',
    FILE: file,
    CSV: info,
    KEYWORDS: keywordsOf(counter, limits.maxKeywords),
    SAMPLES: ctx.option === 'samples' ? 'real' : 'synthetic',
    ...built.shareFormats(),
    ERRORS: errors,
    bytesRead: stopped ? undefined : bytes,
  };
}
