// One worker thread of csv-threads.ts (its code is csv-worker.ts): what it is given for a file, the
// messages it exchanges with the thread that reads the file, and its errors brought back as the same
// classes. Threads are kept from file to file (issue 26): a fresh one is a cold isolate, and one
// that has described blocks before describes the next file's about twice as fast at first (the
// 10 MB file: docs/benchmarks.md, "Upload to statistics"). A kept thread ends after
// CSV_THREAD_IDLE_MS without work; one whose file was aborted or failed is ended at once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BlockOutcome, CsvBlock } from './csv-blocks';
import type { DistinctState } from './distinct';
import { IdleWorkers } from './idle-workers';
import { CorruptFileError, ExtractionLimitError, UnsupportedFileError } from './errors';
import type { TableSketchState } from './table-observer';
import type { CsvInfo, ExtractionLimits, ExtractOption, PrivateColumns } from './types';

/** What a thread is given for a file. */
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

/** Main thread to worker: a file's start, its blocks, its end. */
export type ToCsvThread = { type: 'start'; data: CsvThreadData } | { type: 'block'; block: CsvBlock } | { type: 'end' };

/** Worker to main thread. */
export type FromCsvThread =
  | { type: 'block'; outcome: BlockOutcome }
  /** After 'end': what the thread counted over all its blocks. */
  | { type: 'done'; distinct: Array<DistinctState | null>; sketch?: TableSketchState }
  | { type: 'failed'; error: { name: string; message: string; stack?: string } };

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

/** A kept thread without work for this long is ended (its heap and code are given back). */
export const CSV_THREAD_IDLE_MS = 60_000;

let running = 0;
/** Threads kept between files, free for the next one. */
const kept = new IdleWorkers(CSV_THREAD_IDLE_MS);

/** Threads describing a file now (tests check that none outlives its extraction). */
export function csvThreadsRunning(): number {
  return running;
}

/** Threads kept between files now. */
export function csvThreadsKept(): number {
  return kept.size;
}

/** Ends the threads kept between files (tests; a process that ends does not need it: kept threads do not hold it). */
export function endKeptCsvThreads(): Promise<void> {
  return kept.endAll();
}

function startThread(): Worker {
  const built = path.join(__dirname, 'csv-worker.js');
  if (existsSync(built)) return new Worker(built, { resourceLimits: THREAD_LIMITS });
  // Running from the TypeScript sources (tests, benchmarks): compile on require as tools/scripts/run-ts.cjs does.
  const register = path.resolve(__dirname, '../../../tools/scripts/register-ts.cjs');
  const source = path.join(__dirname, 'csv-worker.ts');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(source)});`, { eval: true, resourceLimits: THREAD_LIMITS });
}

/** One worker describing one file's blocks, the blocks it has not described yet, and what it counted once it is done. */
export class CsvThread {
  readonly worker: Worker;
  inFlight = 0;
  done: Extract<FromCsvThread, { type: 'done' }> | null = null;
  private released = false;
  private readonly onMessage: (message: FromCsvThread) => void;
  private readonly onError: (error: Error) => void;
  private readonly onExit: (code: number) => void;

  constructor(data: CsvThreadData, onMessage: (thread: CsvThread, message: FromCsvThread) => void, onFailed: (error: Error) => void) {
    this.worker = kept.take() ?? kept.started(startThread());
    running++;
    this.onMessage = (message) => onMessage(this, message);
    this.onError = onFailed;
    this.onExit = (code) => onFailed(new Error(`A CSV worker thread stopped (exit code ${code}) before it answered`));
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.worker.postMessage({ type: 'start', data } satisfies ToCsvThread);
  }

  post(message: ToCsvThread): void {
    if (message.type === 'block') {
      this.inFlight++;
      this.worker.postMessage(message, [message.block.buffer]); // handed over, not copied
    } else this.worker.postMessage(message);
  }

  /** The file is over: kept for the next one when it answered everything ('done'), else ended. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    running--;
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    if (this.done && this.inFlight === 0) kept.keep(this.worker);
    else await this.worker.terminate();
  }
}
