// Extraction of one file in a worker thread (extraction-thread.worker.ts), so that profiling a large
// file does not hold the catalogue's event loop: the API of the same process keeps answering (issue
// 13, npm run bench:profiling-api). In cooperative slices on the one thread, every await of a request
// (each database round trip) waited for a slice of extraction to end. This thread only reads the
// stream and posts its bytes, at most MAX_IN_FLIGHT chunks ahead of the worker.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type CsvThreads, type ExtractOption, type PrivateColumns, revivedExtractionError, type TableSketch } from '@dc/extraction';
import type { MetadataExtractionInput } from './metadata-extractor';

/** Chunks posted to the worker and not yet taken by its stream; reading waits beyond that. */
const MAX_IN_FLIGHT = 8;

/** What the worker is started with: the input without its stream, and the options it can clone. */
export interface ExtractionThreadData {
  fileName: string;
  contentType?: string;
  size?: number;
  extractOption: ExtractOption;
  privateColumns?: PrivateColumns;
  /** Gather column sketches (a SketchCollector in the worker; its tables come back with META). */
  sketches: boolean;
  /** How much nicer than the process the worker thread runs (Linux; 0 keeps its priority). */
  nice: number;
  /** The library's own threads for a large CSV, started from this worker (they inherit its priority). */
  threads?: CsvThreads;
}

export type ToExtractionThread = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

export type FromExtractionThread =
  | { type: 'consumed' }
  | { type: 'done'; meta: Record<string, unknown>; sketches: TableSketch[] | null }
  | { type: 'failed'; error: { name: string; message: string; stack?: string } };

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

/** The bytes of a stream chunk, copied into a buffer of their own (a Buffer may be a view of a shared pool) so it can be transferred. */
function ownBytes(chunk: unknown): Uint8Array {
  if (typeof chunk === 'string') return new Uint8Array(Buffer.from(chunk));
  if (chunk instanceof Uint8Array) return new Uint8Array(chunk);
  throw new TypeError('extraction streams must yield bytes');
}

/**
 * Describes the file in a worker thread. Aborting `signal` ends the worker at once (and rejects
 * with the signal's reason); the caller destroys the stream.
 */
export function extractInThread(
  input: MetadataExtractionInput,
  data: Omit<ExtractionThreadData, 'fileName' | 'contentType' | 'size'>,
  signal?: AbortSignal,
): Promise<ThreadExtraction> {
  return new Promise<ThreadExtraction>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const worker = startWorker({ fileName: input.fileName, contentType: input.contentType, size: input.size, ...data });
    const chunks = input.stream[Symbol.asyncIterator]();
    let inFlight = 0;
    let reading = false;
    let ended = false;
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
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
            post({ type: 'end' });
          } else {
            const bytes = ownBytes(next.value);
            inFlight++;
            post({ type: 'chunk', bytes }, [bytes.buffer as ArrayBuffer]);
          }
        }
      } catch (error) {
        ended = true;
        post({ type: 'error', message: (error as Error).message });
      } finally {
        reading = false;
      }
    };
    worker.on('message', (message: FromExtractionThread) => {
      if (message.type === 'consumed') {
        inFlight--;
        void read();
      } else if (message.type === 'done') settle(() => resolve({ meta: message.meta, sketches: message.sketches }));
      else settle(() => reject(revivedExtractionError(message.error)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the extraction thread exited (code ${code}) without an answer`))));
    void read();
  });
}
