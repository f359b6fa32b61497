/// <reference lib="webworker" />
import Papa from 'papaparse';
import { detectDelimiter } from '../records/csv-preview';
import { clkEncoder } from './clk';
import { keyedHasher, parseLinkageKey } from './linkage-key';
import type { ColumnChoice } from './private-columns';
import { rowTransform } from './private-indexing';

// Private indexing off the page's thread: the CSV is read in chunks (papaparse over the File), so a
// large file neither freezes the page nor is held whole; only the sendable rows are kept, as Blob parts.

export type WorkerRequest =
  { type: 'scan'; file: File; sampleRows: number } | { type: 'transform'; file: File; choices: ColumnChoice[]; linkageKey: string | null };

export type WorkerResponse =
  | { type: 'scanned'; headers: string[]; rows: string[][]; totalRows: number; delimiter: string }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; blob: Blob; rows: number }
  | { type: 'error'; message: string };

const CHUNK_BYTES = 1024 * 1024;
const post = (message: WorkerResponse) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

async function delimiterOf(file: File): Promise<string> {
  return detectDelimiter(await file.slice(0, 64 * 1024).text());
}

async function scan(file: File, sampleRows: number): Promise<void> {
  const delimiter = await delimiterOf(file);
  let headers: string[] | null = null;
  const rows: string[][] = [];
  let total = 0;
  Papa.parse<string[]>(file, {
    delimiter,
    skipEmptyLines: 'greedy',
    chunkSize: CHUNK_BYTES,
    chunk(results) {
      for (const cells of results.data) {
        if (!headers) headers = cells;
        else {
          if (rows.length < sampleRows) rows.push(cells);
          total++;
        }
      }
    },
    complete: () => post({ type: 'scanned', headers: headers ?? [], rows, totalRows: total, delimiter }),
    error: (error) => post({ type: 'error', message: error.message }),
  });
}

async function transform(file: File, choices: ColumnChoice[], linkageKey: string | null): Promise<void> {
  const key = linkageKey ? parseLinkageKey(linkageKey) : null;
  if (choices.some((c) => c.hash) && !key) return post({ type: 'error', message: 'A linkage key is needed to hash columns.' });
  const delimiter = await delimiterOf(file);
  const rows = key ? rowTransform(choices, keyedHasher(key), clkEncoder(key)) : rowTransform(choices, (text) => text);
  const parts: string[] = [];
  let header = true;
  let count = 0;
  Papa.parse<string[]>(file, {
    delimiter,
    skipEmptyLines: 'greedy',
    chunkSize: CHUNK_BYTES,
    chunk(results) {
      const out: string[][] = [];
      for (const cells of results.data) {
        if (header) {
          out.push(rows.header(cells));
          header = false;
        } else {
          out.push(rows.row(cells));
          count++;
        }
      }
      if (out.length) parts.push(Papa.unparse(out, { delimiter: ',', newline: '\n' }) + '\n');
      post({ type: 'progress', fraction: Math.min(1, (results.meta.cursor ?? 0) / Math.max(1, file.size)) });
    },
    complete: () => post({ type: 'done', blob: new Blob(parts, { type: 'text/csv' }), rows: count }),
    error: (error) => post({ type: 'error', message: error.message }),
  });
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  const run = request.type === 'scan' ? scan(request.file, request.sampleRows) : transform(request.file, request.choices, request.linkageKey);
  run.catch((error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
};
