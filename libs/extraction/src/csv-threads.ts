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
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Extracted, ExtractorContext } from './context';
import { BlockCutter, type BlockOutcome, type CsvBlock } from './csv-blocks';
import { ByteCells, ByteRecords, readByteRecords } from './csv-bytes';
import { type ChunkSource, type CsvRead, describeCsv, detectDelimiter, detectLineEnding, extractCsv, headerOf, readCsv, SAMPLE_CHARS } from './csv';
import type { DistinctState } from './distinct';
import { CorruptFileError, ExtractionLimitError, UnsupportedFileError } from './errors';
import { isBinary, TextChunkDecoder, toBytes } from './io';
import { SketchCollector, type TableSketchState } from './sketch';
import { TableBuilder, type TableMerger } from './table';
import type { CsvInfo, ExtractionLimits, ExtractOption, PrivateColumns } from './types';

/** Files smaller than this are read in the calling thread: starting threads costs more than it saves. */
export const DEFAULT_THREADS_MIN_BYTES = 32 * 1024 * 1024;
/** Bytes a block holds, at least (it ends at the next record end). */
export const DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024;
/** Blocks handed to a thread and not described yet; the stream waits beyond that. */
const MAX_IN_FLIGHT = 2;
/** Room a block buffer has beyond blockBytes, for the record that ends the block. */
const BLOCK_SLACK = 1024 * 1024;

/**
 * Buffers blocks are handed to threads in, and back: reused, because the first touch of a fresh
 * buffer's pages costs more than copying into one (docs/benchmarks.md).
 */
class BlockBuffers {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly size: number) {}

  /** A buffer holding `pieces` one after the other. */
  fill(pieces: Buffer[]): { buffer: ArrayBuffer; length: number } {
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const reusable = this.free.findIndex((buffer) => buffer.byteLength >= length);
    const buffer = reusable >= 0 ? this.free.splice(reusable, 1)[0] : new ArrayBuffer(Math.max(length, this.size));
    const target = Buffer.from(buffer);
    let offset = 0;
    for (const piece of pieces) offset += piece.copy(target, offset);
    return { buffer, length };
  }

  release(buffer: ArrayBuffer): void {
    this.free.push(buffer);
  }
}

/** What a thread is started with. */
export interface CsvThreadData {
  option: Exclude<ExtractOption, 'minimal'>;
  limits: ExtractionLimits;
  fileName: string;
  privateColumns?: PrivateColumns;
  info: CsvInfo;
  /** The table's column names (from the header, or Column 1, 2, …). */
  headers: string[];
  /** With column sketches: the columns the caller's SketchCollector has left to sketch. */
  sketchBudget?: number;
}

/** Main thread to worker. */
export type ToCsvThread = { type: 'block'; block: CsvBlock } | { type: 'end' };

/** Worker to main thread. */
export type FromCsvThread =
  | { type: 'block'; outcome: BlockOutcome }
  /** After 'end': what the thread counted over all its blocks. */
  | { type: 'done'; distinct: Array<DistinctState | null>; sketch?: TableSketchState }
  | { type: 'failed'; error: { name: string; message: string; stack?: string } };

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

const EXTRACTION_ERRORS: Record<string, new (message: string) => Error> = { CorruptFileError, ExtractionLimitError, UnsupportedFileError };

/** A worker's error as the same class, so callers (and 'report') see what one thread would throw. */
export function revived({ name, message, stack }: { name: string; message: string; stack?: string }): Error {
  const Class = EXTRACTION_ERRORS[name];
  const error = Class ? new Class(message) : Object.assign(new Error(message), { name });
  if (stack) error.stack = stack;
  return error;
}

/**
 * Each thread has its own heap; V8's default young generation (up to 48 MB) per thread would add up,
 * and a block's garbage is short-lived: a smaller one keeps the peak RSS down (docs/benchmarks.md).
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 16 };

let running = 0;

/** Threads started and not yet exited (tests check that none outlives its extraction). */
export function csvThreadsRunning(): number {
  return running;
}

function startThread(data: CsvThreadData): Worker {
  const built = path.join(__dirname, 'csv-worker.js');
  if (existsSync(built)) return new Worker(built, { workerData: data, resourceLimits: THREAD_LIMITS });
  // Running from the TypeScript sources (tests, benchmarks): compile on require as tools/scripts/run-ts.cjs does.
  const register = path.resolve(__dirname, '../../../tools/scripts/register-ts.cjs');
  const source = path.join(__dirname, 'csv-worker.ts');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(source)});`, {
    eval: true,
    workerData: data,
    resourceLimits: THREAD_LIMITS,
  });
}

/** One worker, the blocks it has not described yet, and what it counted once it is done. */
class CsvThread {
  readonly worker: Worker;
  inFlight = 0;
  done: Extract<FromCsvThread, { type: 'done' }> | null = null;

  constructor(data: CsvThreadData, onMessage: (thread: CsvThread, message: FromCsvThread) => void, onFailed: (error: Error) => void) {
    this.worker = startThread(data);
    running++;
    this.worker.once('exit', () => running--);
    this.worker.on('message', (message: FromCsvThread) => onMessage(this, message));
    this.worker.on('error', onFailed);
    this.worker.on('exit', (code) => onFailed(new Error(`A CSV worker thread stopped (exit code ${code}) before it answered`)));
  }

  post(message: ToCsvThread): void {
    if (message.type === 'block') {
      this.inFlight++;
      this.worker.postMessage(message, [message.block.buffer]); // handed over, not copied
    } else this.worker.postMessage(message);
  }
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

/** The threads of one extraction, the blocks handed out, and their figures merged in file order. */
class BlockRun {
  private readonly threads: CsvThread[] = [];
  /** Blocks handed out and not merged yet: where they start, and their bytes once back (to be read another way if need be). */
  private readonly blocks = new Map<number, { offset: number; length: number; buffer: ArrayBuffer | null }>();
  private readonly buffers: BlockBuffers;
  private readonly outcomes = new Map<number, BlockOutcome>();
  private nextIndex = 0;
  private nextMerged = 0;
  private failure: Error | null = null;
  /** The first block that could not be described as bytes, or was too long, and why. */
  private trouble: { index: number; kind: 'declined' | 'too-long' } | null = null;
  private stopped: string | null = null;
  private textRead: CsvRead | null = null;
  private wake: (() => void) | null = null;
  /** A block gathers no more than this before the rest is read another way. */
  readonly largestBlock: number;

  constructor(
    private readonly ctx: ExtractorContext,
    private readonly info: CsvInfo,
    private readonly headers: string[],
    count: number,
    /** Columns left to sketch when the table opened (undefined: no sketches). */
    private readonly sketchBudget: number | undefined,
    private readonly merger: TableMerger,
    private readonly table: TableBuilder,
  ) {
    const blockBytes = ctx.threads?.blockBytes ?? DEFAULT_BLOCK_BYTES;
    this.largestBlock = blockBytes + ctx.limits.maxLineBytes * 4;
    this.buffers = new BlockBuffers(blockBytes + BLOCK_SLACK);
    const data: CsvThreadData = {
      option: ctx.option,
      limits: ctx.limits,
      fileName: ctx.fileName,
      privateColumns: ctx.privacy?.choices,
      info,
      headers,
      sketchBudget: this.sketchBudget,
    };
    for (let i = 0; i < count; i++)
      this.threads.push(
        new CsvThread(
          data,
          (thread, message) => this.receive(thread, message),
          (error) => this.fail(error),
        ),
      );
  }

  /**
   * Hands the next block (`pieces`, from stream offset `offset`) to the least busy thread, waiting
   * for room; false, the block not handed out, once reading as blocks stops.
   */
  async hand(pieces: Buffer[], offset: number, windows1252From: number, final: boolean): Promise<boolean> {
    for (;;) {
      this.check();
      if (this.trouble) return false;
      const thread = this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      // Blocks described ahead of one still being read wait to be merged: bounded too.
      const unmerged = this.nextIndex - this.nextMerged;
      if (thread.inFlight < MAX_IN_FLIGHT && unmerged < this.threads.length * MAX_IN_FLIGHT) {
        const index = this.nextIndex++;
        const { buffer, length } = this.buffers.fill(pieces);
        this.blocks.set(index, { offset, length, buffer: null });
        thread.post({ type: 'block', block: { index, buffer, length, offset, windows1252From, final } });
        return true;
      }
      await this.changed();
    }
  }

  /**
   * Reading as blocks stopped: a block was declined, or was too long, or did not end. Unless a
   * record too long stopped reading, the rest is read in this thread as extractCsv reads it, from
   * the first block not described (held here still) or else from `offset`, where `pending` starts;
   * its figures come after the blocks'.
   */
  async readRestAsText(chunks: Chunks, offset: number, pending: Buffer[], decoder: TextChunkDecoder): Promise<void> {
    await this.settle();
    if (this.trouble?.kind === 'too-long') return;
    const first = this.trouble?.index ?? this.nextIndex;
    const held = [...this.blocks.entries()]
      .filter(([index]) => index >= first)
      .sort(([a], [b]) => a - b)
      .map(([, { buffer, length }]) => Buffer.from(buffer as ArrayBuffer, 0, length));
    const from = this.trouble ? (this.blocks.get(first)?.offset as number) : offset;
    // A declined block was handed out, and so is among the held ones with the blocks after it; `pending` follows them.
    const rest = new TableBuilder(this.headers, {
      option: this.ctx.option,
      limits: this.ctx.limits,
      decimalComma: this.info.DELIMITER === ';',
      privacy: this.ctx.privacy,
      tableName: this.ctx.fileName,
      observers: this.sketchBudget === undefined ? undefined : new SketchCollector(this.sketchBudget, true),
    });
    rest.startBlock(first);
    this.trouble = { index: first, kind: 'declined' };
    const source = chunks.from([...held, ...pending]);
    this.textRead = await readCsv(source, this.ctx, {}, { info: this.info, table: rest, record: this.merger.records, offset: from, decoder });
    const block = rest.takeBlock();
    if (block.longRows > 0) block.firstLongRow -= this.merger.records; // readCsv numbered the records in the file
    this.merger.add(block, 0);
    this.merger.addDistinct(rest.distinctStates());
    const sketch = rest.sketchState();
    if (sketch) this.table.mergeSketches(sketch);
  }

  /** Once every block handed out is back: whether one was declined. */
  async declined(): Promise<boolean> {
    await this.settle();
    return this.trouble?.kind === 'declined';
  }

  /** Every block described and merged, every thread's counts taken in: what readCsv would have read. */
  async finish(bytes: number, decoder: TextChunkDecoder): Promise<CsvRead> {
    await this.settle();
    for (const thread of this.threads) thread.post({ type: 'end' });
    while (!this.threads.every((t) => t.done)) await this.changed();
    for (const thread of this.threads) {
      const done = thread.done as Extract<FromCsvThread, { type: 'done' }>;
      this.merger.addDistinct(done.distinct);
      if (done.sketch) this.table.mergeSketches(done.sketch);
    }
    this.table.adoptMerged(this.merger);
    const errors: string[] = [];
    const problem = decoder.problem() ?? this.textRead?.errors.find((e) => e.startsWith('Invalid UTF-8'));
    if (problem) errors.push(problem);
    const stopped = this.stopped ?? this.textRead?.stopped ?? null;
    if (this.stopped) errors.push(this.stopped);
    errors.push(...(this.textRead?.errors.filter((e) => !e.startsWith('Invalid UTF-8')) ?? []));
    const info = { ...this.info, ENCODING: this.textRead?.info.ENCODING ?? decoder.encoding };
    return { info, table: this.table, stopped, errors, bytes };
  }

  async stop(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  /** Waits until every block handed out has come back and the described ones are merged. */
  private async settle(): Promise<void> {
    while (this.threads.some((t) => t.inFlight > 0)) await this.changed();
    this.check();
  }

  private receive(thread: CsvThread, message: FromCsvThread): void {
    if (message.type === 'failed') return this.fail(revived(message.error));
    if (message.type === 'done') thread.done = message;
    else {
      thread.inFlight--;
      const block = this.blocks.get(message.outcome.index);
      if (block) block.buffer = message.outcome.buffer;
      this.outcomes.set(message.outcome.index, message.outcome);
      this.mergeInOrder();
    }
    this.notify();
  }

  /** Merges the described blocks that come next in file order; stops at the first troubled one. */
  private mergeInOrder(): void {
    for (let outcome = this.outcomes.get(this.nextMerged); outcome && !this.trouble; outcome = this.outcomes.get(this.nextMerged)) {
      this.outcomes.delete(this.nextMerged);
      if (outcome.kind === 'described') {
        this.merger.add(outcome.table, outcome.records);
        this.blocks.delete(this.nextMerged);
        this.buffers.release(outcome.buffer);
        this.nextMerged++;
        continue;
      }
      this.trouble = { index: outcome.index, kind: outcome.kind };
      if (outcome.kind === 'too-long') {
        this.stopped = `Stopped at record ${this.merger.records + 1}: a record longer than ${this.ctx.limits.maxLineBytes} characters (maxLineBytes), or an unclosed quote`;
      }
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
