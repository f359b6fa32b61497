import type { ColumnChoice } from './private-columns';
import type { WorkerRequest, WorkerResponse } from './private-indexing.worker';

function run<T>(request: WorkerRequest, onProgress?: (fraction: number) => void): { result: Promise<T>; cancel(): void } {
  const worker = new Worker(new URL('./private-indexing.worker.ts', import.meta.url), { type: 'module' });
  let cancel = () => worker.terminate();
  const result = new Promise<T>((resolve, reject) => {
    cancel = () => {
      worker.terminate();
      reject(new DOMException('Cancelled', 'AbortError'));
    };
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const message = event.data;
      if (message.type === 'progress') return onProgress?.(message.fraction);
      worker.terminate();
      if (message.type === 'error') reject(new Error(message.message));
      else resolve(message as T);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'The file could not be read.'));
    };
    worker.postMessage(request);
  });
  return { result, cancel: () => cancel() };
}

/** Header, the first rows and the row count of a CSV, read in a Web Worker. */
export const scanCsv = (file: File, sampleRows = 10) => run<Extract<WorkerResponse, { type: 'scanned' }>>({ type: 'scan', file, sampleRows });

/** The CSV as it may leave the browser (hashed, masked, without excluded columns), made in a Web Worker. */
export const transformCsv = (file: File, choices: ColumnChoice[], linkageKey: string | null, onProgress: (fraction: number) => void) =>
  run<Extract<WorkerResponse, { type: 'done' }>>({ type: 'transform', file, choices, linkageKey }, onProgress);
