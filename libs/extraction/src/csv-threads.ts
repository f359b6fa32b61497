// A large CSV described by worker threads, block by block. This thread reads the stream, decides the
// dialect and the header as extractCsv does, cuts the rest into blocks of whole records
// (csv-blocks.ts) and hands each block to the least busy thread, which describes all its columns
// (csv-worker.ts). Each block's figures come back as plain data and are merged in file order
// (TableMerger), so the answer does not depend on which thread read which block, nor on how many
// threads there are; distinct values and sketches are counted per thread in ways whose union does
// not depend on the order. Anything the byte reader declines is read from that block on as
// extractCsv reads it, in this thread; a file whose start it declines is read by extractCsv whole.
// What blocks change against reading in one pass: MEAN and STD are combined from the blocks'
// (Chan et al.), equal to the last digits or so; the 'samples' draw, the words of a column with
// more distinct words than are kept, and the numbers a sketch keeps beyond SKETCH_RESERVOIR are
// drawn per block. A file smaller than one block is described exactly as in one pass.
// Here, the file's start and the blocks cut from the rest; the threads are csv-thread.ts, the blocks'
// handing out and merging csv-block-run.ts.
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import type { Extracted, ExtractorContext } from './context';
import { BlockRun, DEFAULT_BLOCK_BYTES } from './csv-block-run';
import { BlockCutter } from './csv-blocks';
import { ByteCells, ByteRecords, readByteRecords } from './csv-bytes';
import { type ChunkSource, describeCsv, detectDelimiter, detectLineEnding, extractCsv, headerOf, SAMPLE_CHARS } from './csv';
import { CorruptFileError } from './errors';
import { isBinary, TextChunkDecoder, toBytes } from './io';
import { SketchCollector } from './sketch';
import { TableBuilder } from './table';
import type { CsvInfo, ExtractionLimits } from './types';

/** Files smaller than this are read in the calling thread: starting threads costs more than it saves. */
export const DEFAULT_THREADS_MIN_BYTES = 32 * 1024 * 1024;

/** How many threads describe this CSV: 1 when it is read in the calling thread. */
export function csvThreadsFor(ctx: ExtractorContext): number {
  const workers = ctx.threads?.workers ?? Math.min(2, availableParallelism());
  if (workers <= 1 || ctx.size === undefined || ctx.size < (ctx.threads?.minBytes ?? DEFAULT_THREADS_MIN_BYTES)) return 1;
  // Other observers see whole rows in order, prehashed columns count their bad values in the order
  // rows come, and maxRowsScanned stops at a row: these stay on the one-thread path.
  if ((ctx.observers && !(ctx.observers instanceof SketchCollector)) || (ctx.privacy?.choices.prehashed?.length ?? 0) > 0) return 1;
  if (ctx.limits.maxRowsScanned !== undefined) return 1;
  return Math.floor(workers);
}

/** A stream read chunk by chunk, whose chunks read so far can be given again first (to read it another way). */
class Chunks {
  private readonly iterator: AsyncIterator<unknown>;

  constructor(private readonly stream: Readable) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  async next(): Promise<Uint8Array | null> {
    const { done, value } = await this.iterator.next();
    return done ? null : toBytes(value);
  }

  /** `first`, then the rest of the stream, as a ChunkSource. */
  from(first: Uint8Array[]): ChunkSource {
    const next = (): Promise<Uint8Array | null> => this.next();
    return {
      async *[Symbol.asyncIterator]() {
        yield* first;
        for (let chunk = await next(); chunk; chunk = await next()) yield chunk;
      },
      destroy: () => this.stream.destroy(),
    };
  }
}

/** The start of the file: the chunks read to decide the dialect, and the text they decoded to. */
interface Head {
  chunks: Uint8Array[];
  text: string;
  ended: boolean;
}

async function readHead(chunks: Chunks, decoder: TextChunkDecoder): Promise<Head> {
  const head: Head = { chunks: [], text: '', ended: false };
  while (head.text.length < SAMPLE_CHARS) {
    const chunk = await chunks.next();
    if (!chunk) {
      head.text += decoder.end();
      head.ended = true;
      break;
    }
    if (head.chunks.length === 0 && isBinary(chunk)) throw new CorruptFileError('The file holds binary data (NUL bytes), not delimited text');
    head.chunks.push(chunk);
    head.text += decoder.decode(chunk);
  }
  return head;
}

/** Where the data starts: after the header (or at the first record when it is data), and the records before it. */
function dataStart(head: Head, bytes: Buffer, offset: number, decoder: TextChunkDecoder, info: CsvInfo, limits: ExtractionLimits): DataStart | null {
  const records = new ByteRecords();
  if (!readByteRecords(bytes, 0, bytes.length, info.DELIMITER.charCodeAt(0), info.LINE_ENDING, head.ended, records)) return null;
  const cells = new ByteCells(bytes, records, offset, decoder.windows1252From);
  for (let r = 0; r < records.count; r++) {
    if (records.recordEnd[r] - records.recordStart[r] > limits.maxLineBytes) return null; // readCsv says where it stops
    if (cells.isBlank(r)) continue;
    // Only a complete record (ended by its line end) is known to be the whole header.
    if (!head.ended && records.recordEnd[r] > records.end) return null;
    const { hasHeader, headers } = headerOf(cells.row(r));
    return { headers, hasHeader, at: hasHeader ? records.recordEnd[r] : records.recordStart[r], records: hasHeader ? r + 1 : r };
  }
  return null;
}

interface DataStart {
  headers: string[];
  hasHeader: boolean;
  /** Offset of the data's first byte in the head's bytes. */
  at: number;
  /** Records before it (blank ones and the header). */
  records: number;
}

export async function extractCsvInThreads(stream: Readable, ctx: ExtractorContext, count: number): Promise<Extracted> {
  const chunks = new Chunks(stream);
  const decoder = new TextChunkDecoder();
  const head = await readHead(chunks, decoder);
  const info: CsvInfo = {
    DELIMITER: detectDelimiter(head.text, ctx.fileName),
    ENCODING: decoder.encoding,
    HAS_HEADER: true,
    LINE_ENDING: detectLineEnding(head.text),
  };
  const headBytes = Buffer.concat(head.chunks).subarray(decoder.bomLength);
  // UTF-16, or a start the byte reader declines: the whole file is read in this thread.
  const start = decoder.encoding.startsWith('utf-16') ? null : dataStart(head, headBytes, decoder.bomLength, decoder, info, ctx.limits);
  if (!start) return extractCsv(chunks.from(head.chunks), ctx);
  info.HAS_HEADER = start.hasHeader;

  // This thread's table takes the blocks' merged figures; its sketches merge the threads' (block mode).
  const callerSketches = ctx.observers instanceof SketchCollector ? ctx.observers : undefined;
  const sketches = callerSketches ? new SketchCollector(callerSketches.budgetLeft, true) : undefined;
  const table = new TableBuilder(start.headers, {
    option: ctx.option,
    limits: ctx.limits,
    decimalComma: info.DELIMITER === ';',
    privacy: ctx.privacy,
    tableName: ctx.fileName,
    observers: sketches,
  });
  const merger = table.merger();
  merger.records = start.records;
  const run = new BlockRun(ctx, info, start.headers, count, callerSketches?.budgetLeft, merger, table);
  try {
    const base = decoder.bomLength + start.at; // stream offset of the data's start
    const cutter = new BlockCutter(info.LINE_ENDING === '\r' ? 13 : 10, 0, ctx.threads?.blockBytes ?? DEFAULT_BLOCK_BYTES);
    let pieces: Buffer[] = []; // the block being gathered
    let blockAt = 0; // data offset of its first byte
    let at = 0; // data offset of the next byte
    let bytes = head.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    /** Cuts `data` into blocks and hands them out; false when reading as blocks stops (`pieces` then holds what was not handed out). */
    const take = async (data: Buffer, final: boolean): Promise<boolean> => {
      let from = 0;
      for (const cut of cutter.cuts(data, at)) {
        pieces.push(data.subarray(from, cut - at));
        if (!(await run.hand(pieces, base + blockAt, decoder.windows1252From, false))) {
          pieces.push(data.subarray(cut - at));
          return false;
        }
        pieces = [];
        from = cut - at;
        blockAt = cut;
      }
      pieces.push(data.subarray(from));
      at += data.length;
      if (final) return run.hand(pieces, base + blockAt, decoder.windows1252From, true);
      // A block that does not end is an unclosed quote, or records far longer than maxLineBytes.
      return at - blockAt <= run.largestBlock;
    };
    let going = await take(headBytes.subarray(start.at), head.ended);
    while (going && !head.ended) {
      const chunk = await chunks.next();
      if (!chunk) {
        decoder.advanceEnd();
        going = await take(Buffer.alloc(0), true);
        break;
      }
      bytes += chunk.length;
      decoder.advance(chunk);
      going = await take(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), false);
    }
    // A block declined, even one of the last handed out, is read as text from there.
    if (!going || (await run.declined())) await run.readRestAsText(chunks, base + blockAt, going ? [] : pieces, decoder);
    const read = await run.finish(bytes, decoder);
    if (read.stopped) stream.destroy();
    const extracted = describeCsv(read, ctx);
    if (callerSketches && sketches?.tables[0]) callerSketches.adopt(sketches.tables[0], sketches.budgetLeft);
    return extracted;
  } finally {
    await run.stop();
  }
}
