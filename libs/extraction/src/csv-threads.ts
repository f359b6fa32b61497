// A large CSV described by worker threads: every thread gets the same bytes and reads every record
// (so quoted line ends, dialect detection and record numbers are exactly as in one thread), but
// accumulates statistics only for its share of the columns, the costly part. Thread 0 also keeps
// the row-level figures; it takes in the other threads' columns and builds META as extractCsv
// does. This thread only forwards the stream's chunks, as they came, with bounded memory: at most
// MAX_IN_FLIGHT batches per thread are unread, and the stream is paused meanwhile.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Extracted, ExtractorContext } from './context';
import { CorruptFileError, ExtractionLimitError, UnsupportedFileError } from './errors';
import { toBytes } from './io';
import { SketchCollector, type TableSketch } from './sketch';
import type { ColumnPart } from './table';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';

/** Files smaller than this are read in the calling thread: starting threads costs more than it saves. */
export const DEFAULT_THREADS_MIN_BYTES = 32 * 1024 * 1024;
/** Chunks are posted in batches of at least this many bytes (one message per batch per thread). */
const BATCH_BYTES = 1024 * 1024;
/** Shared buffers hold a batch and the chunk that completes it. */
const BUFFER_BYTES = 2 * BATCH_BYTES;
/** Batches posted to a thread and not yet read by it; the stream waits beyond that. */
const MAX_IN_FLIGHT = 4;

/** What a thread is started with. */
export interface CsvThreadData {
  index: number;
  of: number;
  option: Exclude<ExtractOption, 'minimal'>;
  limits: ExtractionLimits;
  fileName: string;
  size?: number;
  privateColumns?: PrivateColumns;
  /** With column sketches: the columns the caller's SketchCollector has left to sketch. */
  sketchBudget?: number;
}

/**
 * Main thread to worker. A batch is one SharedArrayBuffer that every thread reads (one copy, however
 * many threads), with the end of each of the stream's chunks in it.
 */
export type ToCsvThread = { type: 'chunks'; shared: SharedArrayBuffer; ends: number[] } | { type: 'end' } | { type: 'parts'; parts: ColumnPart[] };

/** Worker to main thread. */
export type FromCsvThread =
  | { type: 'consumed' }
  /** Every record is read (or a limit stopped reading); other threads send their columns. */
  | { type: 'read'; parts: ColumnPart[]; sketch?: TableSketch }
  /** Thread 0: META, the source headers (for the private-column choices they matched) and its column sketches. */
  | { type: 'done'; extracted: Extracted; headers: string[]; sketch?: TableSketch; sketchBudget: number }
  | { type: 'failed'; error: { name: string; message: string; stack?: string } };

type Done = Extract<FromCsvThread, { type: 'done' }>;

/** How many threads describe this CSV: 1 when it is read in the calling thread. */
export function csvThreadsFor(ctx: ExtractorContext): number {
  const workers = ctx.threads?.workers ?? Math.min(2, availableParallelism());
  if (workers <= 1 || ctx.size === undefined || ctx.size < (ctx.threads?.minBytes ?? DEFAULT_THREADS_MIN_BYTES)) return 1;
  // Other observers see whole rows in this thread, and prehashed columns count their bad values in
  // the order rows come: both stay on the one-thread path. Column sketches are made in the threads.
  if ((ctx.observers && !(ctx.observers instanceof SketchCollector)) || (ctx.privacy?.choices.prehashed?.length ?? 0) > 0) return 1;
  return Math.floor(workers);
}

const EXTRACTION_ERRORS: Record<string, new (message: string) => Error> = { CorruptFileError, ExtractionLimitError, UnsupportedFileError };

/** A worker's error as the same class, so callers (and 'report') see what one thread would throw. */
function revived({ name, message, stack }: { name: string; message: string; stack?: string }): Error {
  const Class = EXTRACTION_ERRORS[name];
  const error = Class ? new Class(message) : Object.assign(new Error(message), { name });
  if (stack) error.stack = stack;
  return error;
}

/**
 * Every thread allocates as fast as one thread reading the file alone (each reads every record), and
 * V8's default young generation (up to 48 MB) per thread would add up: a smaller one keeps the peak RSS
 * of two threads near that of one (docs/benchmarks.md).
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
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(source)});`, { eval: true, workerData: data, resourceLimits: THREAD_LIMITS });
}

/** One worker and what it has told so far. */
class CsvThread {
  readonly worker: Worker;
  posted = 0;
  consumed = 0;
  read: ColumnPart[] | null = null;
  sketch?: TableSketch;
  private waiting: (() => void) | null = null;

  constructor(
    data: CsvThreadData,
    private readonly onDone: (done: Done) => void,
    private readonly onFailed: (error: Error) => void,
  ) {
    this.worker = startThread(data);
    running++;
    this.worker.once('exit', () => running--);
    this.worker.on('message', (message: FromCsvThread) => this.receive(message));
    this.worker.on('error', (error) => this.onFailed(error));
    this.worker.on('exit', (code) => this.onFailed(new Error(`A CSV worker thread stopped (exit code ${code}) before it answered`)));
  }

  post(message: ToCsvThread): void {
    if (message.type === 'chunks') this.posted++;
    this.worker.postMessage(message);
  }

  /** Resolves once the thread has room for another batch, or has stopped reading. */
  room(): Promise<void> {
    if (this.posted - this.consumed < MAX_IN_FLIGHT || this.read) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private receive(message: FromCsvThread): void {
    switch (message.type) {
      case 'consumed':
        this.consumed++;
        break;
      case 'read':
        this.read = message.parts;
        this.sketch = message.sketch;
        break;
      case 'done':
        this.onDone(message);
        break;
      case 'failed':
        this.onFailed(revived(message.error));
        break;
    }
    this.wake();
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}

/**
 * The shared buffers batches are posted in, each reused once every thread has read its batch (a
 * thread says so after the last chunk of a batch has gone through readCsv), so memory stays bounded
 * however rarely this thread's garbage collector runs.
 */
class BatchBuffers {
  private readonly inUse: Array<{ batch: number; shared: SharedArrayBuffer }> = [];
  private readonly free: SharedArrayBuffer[] = [];
  private batches = 0;

  constructor(private readonly threads: CsvThread[]) {}

  take(bytes: number): SharedArrayBuffer {
    const readByAll = Math.min(...this.threads.map((t) => t.consumed));
    while (this.inUse.length > 0 && this.inUse[0].batch < readByAll) this.free.push((this.inUse.shift() as { shared: SharedArrayBuffer }).shared);
    const reused = this.free.findIndex((buffer) => buffer.byteLength >= bytes);
    const shared = reused >= 0 ? this.free.splice(reused, 1)[0] : new SharedArrayBuffer(Math.max(bytes, BUFFER_BYTES));
    this.inUse.push({ batch: this.batches++, shared });
    return shared;
  }
}

export async function extractCsvInThreads(stream: Readable, ctx: ExtractorContext, count: number): Promise<Extracted> {
  let settle!: { resolve: (done: Done) => void; reject: (error: Error) => void };
  const outcome = new Promise<Done>((resolve, reject) => (settle = { resolve, reject }));
  const sketches = ctx.observers instanceof SketchCollector ? ctx.observers : undefined;
  let failed: Error | null = null;
  const onFailed = (error: Error): void => {
    failed ??= error;
    settle.reject(error);
    for (const thread of threads) thread.wake();
  };
  const threads: CsvThread[] = [];
  for (let index = 0; index < count; index++) {
    const data: CsvThreadData = { index, of: count, option: ctx.option, limits: ctx.limits, fileName: ctx.fileName, size: ctx.size, privateColumns: ctx.privacy?.choices, sketchBudget: sketches?.budgetLeft };
    threads.push(new CsvThread(data, settle.resolve, onFailed));
  }
  const others = threads.slice(1);
  const allRead = (): boolean => others.every((t) => t.read !== null);
  const partsSent = (): void => threads[0].post({ type: 'parts', parts: others.flatMap((t) => t.read ?? []) });
  outcome.catch(() => undefined); // read below, after the stream; a failure also stops the pump
  try {
    // Forward the chunks until the end, a failure, or the threads stopped reading (a limit).
    const buffers = new BatchBuffers(threads);
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    const flush = async (): Promise<void> => {
      const shared = buffers.take(batchBytes);
      const view = new Uint8Array(shared);
      const ends: number[] = [];
      let offset = 0;
      for (const chunk of batch) {
        view.set(chunk, offset);
        ends.push((offset += chunk.length));
      }
      for (const thread of threads) thread.post({ type: 'chunks', shared, ends });
      batch = [];
      batchBytes = 0;
      for (const thread of threads) await thread.room();
    };
    let stoppedEarly = false;
    for await (const chunk of stream) {
      const bytes = toBytes(chunk);
      batch.push(bytes);
      batchBytes += bytes.length;
      if (batchBytes >= BATCH_BYTES) await flush();
      if (failed || threads.some((t) => t.read !== null)) {
        stoppedEarly = true;
        break;
      }
    }
    if (stoppedEarly) stream.destroy();
    else if (!failed) {
      if (batch.length) await flush();
      for (const thread of threads) thread.post({ type: 'end' });
    }
    if (failed) throw failed;
    // The other threads' columns go to thread 0 once each has read everything.
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (failed) reject(failed);
        else if (allRead()) resolve();
      };
      for (const thread of others) thread.worker.on('message', check);
      outcome.catch(reject);
      check();
    });
    partsSent();
    const { extracted, headers, sketch, sketchBudget } = await outcome;
    if (sketches && sketch) {
      const columns = [sketch, ...others.map((t) => t.sketch)].flatMap((s) => s?.columns ?? []).sort((a, b) => a.index - b.index);
      sketches.adopt({ ...sketch, columns }, sketchBudget);
    }
    // Thread 0 matched the private-column choices against the headers; so does this thread's ColumnPrivacy, for its notes.
    if (ctx.privacy) headers.forEach((header, i) => ctx.privacy?.policyFor(header, i));
    return extracted;
  } finally {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
