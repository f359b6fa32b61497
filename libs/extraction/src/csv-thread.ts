// One worker thread of csv-threads.ts (its code is csv-worker.ts): what it is started with, the
// messages it exchanges with the thread that reads the file, and its errors brought back as the same
// classes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BlockOutcome, CsvBlock } from './csv-blocks';
import type { DistinctState } from './distinct';
import { CorruptFileError, ExtractionLimitError, UnsupportedFileError } from './errors';
import type { TableSketchState } from './table-observer';
import type { CsvInfo, ExtractionLimits, ExtractOption, PrivateColumns } from './types';

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
export class CsvThread {
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
