// Extraction in a worker thread (extraction-thread.worker.ts), so that profiling a large file does
// not hold the catalogue's event loop: the API of the same process keeps answering (issue 13, npm
// run bench:profiling-api). In cooperative slices on the one thread, every await of a request (each
// database round trip) waited for a slice of extraction to end. This thread only reads the stream
// and posts its bytes, at most MAX_IN_FLIGHT chunks ahead of the worker.
// The worker is kept between files (issue 26): a new one costs its start and, more, a cold
// isolate: the 10 MB file took twice as long in a fresh thread as in one that had profiled before
// (docs/benchmarks.md, "Upload to statistics"). It ends after IDLE_MS without work, and at once
// when an extraction is aborted (time-out, shutdown): the next file starts a fresh one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { types } from 'node:util';
import { Worker } from 'node:worker_threads';
import { type CsvThreads, type ExtractOption, IdleWorkers, type PrivateColumns, revivedExtractionError, type TableSketch } from '@dc/extraction';
import type { MetadataExtractionInput } from './metadata-extractor';

/** Chunks posted to the worker and not yet taken by its stream; reading waits beyond that. */
const MAX_IN_FLIGHT = 8;
/** A worker without work for this long is ended (its heap and code are given back). */
export const EXTRACTION_THREAD_IDLE_MS = 60_000;

/** One file's extraction: the input without its stream, and the options the worker can clone. */
export interface ExtractionJob {
  fileName: string;
  contentType?: string;
  size?: number;
  extractOption: ExtractOption;
  privateColumns?: PrivateColumns;
  /** Gather column sketches (a SketchCollector in the worker; its tables come back with META). */
  sketches: boolean;
  /** The library's own threads for a large CSV, started from this worker (they inherit its priority). */
  threads?: CsvThreads;
}

/** What the worker is started with. */
export interface ExtractionThreadData {
  /** How much nicer than the process the worker thread runs (Linux; 0 keeps its priority). */
  nice: number;
}

/** Every message names its job, so what was under way for an earlier file is told apart and dropped. */
export type ToExtractionThread = { job: number } & (
  { type: 'start'; data: ExtractionJob } | { type: 'chunk'; bytes: Uint8Array } | { type: 'end' } | { type: 'error'; message: string }
);

export type FromExtractionThread = { job: number } & (
  | { type: 'consumed' }
  | { type: 'done'; meta: Record<string, unknown>; sketches: TableSketch[] | null }
  | { type: 'failed'; error: { name: string; message: string; stack?: string } }
);

export interface ThreadExtraction {
  meta: Record<string, unknown>;
  sketches: TableSketch[] | null;
}

function startWorker(data: ExtractionThreadData): Worker {
  const built = path.join(__dirname, 'extraction-thread.worker.js');
  if (existsSync(built)) return new Worker(built, { workerData: data });
  // From the TypeScript sources (tests): compiled on require, as tools/scripts/run-ts.cjs does.
  const register = path.resolve(__dirname, '../../../../../tools/scripts/register-ts.cjs');
  const source = path.join(__dirname, 'extraction-thread.worker.ts');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(source)});`, { eval: true, workerData: data });
}

/**
 * The bytes of a stream chunk in a buffer that can be transferred: the chunk itself when it is all of
 * its buffer (a file stream's are), else a copy (a Buffer may be a view of a shared pool). Copying
 * every chunk doubled the buffers this thread allocates per file, and with them the full collections
 * of the product's heap (8 of its 75 MB heap while a 100 MB file was read, about a second of CPU: docs/benchmarks.md).
 * A stream given to extraction hands its chunks over: nothing else may read them afterwards.
 */
function transferableBytes(chunk: unknown): Uint8Array {
  if (typeof chunk === 'string') return new Uint8Array(Buffer.from(chunk));
  if (!(chunk instanceof Uint8Array)) throw new TypeError('extraction streams must yield bytes');
  const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && types.isArrayBuffer(chunk.buffer);
  return whole ? chunk : new Uint8Array(chunk);
}

/**
 * Worker threads for extractions, one file each at a time; one worker is kept between files (the
 * queue describes one file at a time, and a second caller, such as a cloud import, gets a worker of
 * its own for its file).
 */
export class ExtractionThreads {
  /** One free worker kept for the next file. */
  private readonly spare: IdleWorkers;
  private readonly working = new Set<Worker>();
  private jobs = 0;
  /** Workers started so far (tests: a second file reuses the first one's). */
  started = 0;

  constructor(
    private readonly data: ExtractionThreadData,
    idleMs = EXTRACTION_THREAD_IDLE_MS,
  ) {
    this.spare = new IdleWorkers(idleMs, 1);
  }

  /** Whether a worker is kept between files now. */
  get keepsWorker(): boolean {
    return this.spare.size > 0;
  }

  /**
   * Describes the file in a worker thread. Aborting `signal` ends the worker at once (and rejects
   * with the signal's reason); the caller destroys the stream.
   */
  extract(input: MetadataExtractionInput, job: Omit<ExtractionJob, 'fileName' | 'contentType' | 'size'>, signal?: AbortSignal): Promise<ThreadExtraction> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const worker = this.take();
    const id = ++this.jobs;
    return new Promise<ThreadExtraction>((resolve, reject) => {
      const chunks = input.stream[Symbol.asyncIterator]();
      let inFlight = 0;
      let reading = false;
      let ended = false;
      let settled = false;
      const settle = (finish: () => void, reusable: boolean) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.working.delete(worker);
        if (reusable) this.spare.keep(worker);
        else void worker.terminate();
        finish();
      };
      const onAbort = () => settle(() => reject(signal?.reason), false);
      const onError = (error: Error) => settle(() => reject(error), false);
      const onExit = (code: number) => settle(() => reject(new Error(`the extraction thread exited (code ${code}) without an answer`)), false);
      const post = (message: ToExtractionThread, transfer: ArrayBuffer[] = []) => {
        if (!settled) worker.postMessage(message, transfer);
      };
      const read = async () => {
        if (reading) return;
        reading = true;
        try {
          while (!settled && !ended && inFlight < MAX_IN_FLIGHT) {
            const next = await chunks.next();
            if (next.done) {
              ended = true;
              post({ job: id, type: 'end' });
            } else {
              const bytes = transferableBytes(next.value);
              inFlight++;
              post({ job: id, type: 'chunk', bytes }, [bytes.buffer as ArrayBuffer]);
            }
          }
        } catch (error) {
          ended = true;
          post({ job: id, type: 'error', message: (error as Error).message });
        } finally {
          reading = false;
        }
      };
      const onMessage = (message: FromExtractionThread) => {
        if (message.job !== id) return;
        if (message.type === 'consumed') {
          inFlight--;
          void read();
        } else if (message.type === 'done') settle(() => resolve({ meta: message.meta, sketches: message.sketches }), true);
        else settle(() => reject(revivedExtractionError(message.error)), true);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      post({ job: id, type: 'start', data: { fileName: input.fileName, contentType: input.contentType, size: input.size, ...job } });
      void read();
    });
  }

  /** Ends every worker (shutdown); extractions under way fail. */
  async close(): Promise<void> {
    await Promise.all([...[...this.working].map((worker) => worker.terminate()), this.spare.endAll()]);
  }

  /** The spare worker, or a new one. */
  private take(): Worker {
    let worker = this.spare.take();
    if (!worker) {
      worker = this.spare.started(startWorker(this.data));
      this.started++;
    }
    this.working.add(worker);
    return worker;
  }
}
