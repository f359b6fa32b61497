// Helpers for this library's tests: the shared datasets, an independent CSV reader and statistics,
// and the in-memory zip writer for hostile archives. Not exported from index.ts.
import { existsSync, readFileSync } from 'node:fs';
import { DATASETS } from '@dc/testing';
import path from 'node:path';
import { Readable } from 'node:stream';
import { extractMetadata } from './extract';
import type { ExtractionLimits, ExtractionResult, ExtractOption } from './types';

export { DATASETS };

export function dataset(relative: string): string {
  const file = path.join(DATASETS, relative);
  if (!existsSync(file)) {
    throw new Error(`Dataset ${relative} not found at ${file}: the shared datasets (../shared/datasets beside the repository) are part of the test contract`);
  }
  return file;
}

export function streamOf(bytes: Buffer | string, chunkSize = 64 * 1024): Readable {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  function* chunks(): Generator<Buffer> {
    for (let i = 0; i < buffer.length; i += chunkSize) yield buffer.subarray(i, i + chunkSize);
  }
  return Readable.from(chunks(), { objectMode: false });
}

export function extract(
  bytes: Buffer | string,
  fileName: string,
  extractOption: Exclude<ExtractOption, 'minimal'> = 'metadata',
  limits?: Partial<ExtractionLimits>,
): Promise<ExtractionResult> {
  // The profile as computed: these tests check the profiling itself (cell-masking.spec.ts checks what is shown).
  return extractMetadata({ stream: streamOf(bytes), fileName }, { extractOption, limits, cellValues: 'raw' });
}

export function extractDataset(
  relative: string,
  extractOption: Exclude<ExtractOption, 'minimal'> = 'metadata',
  limits?: Partial<ExtractionLimits>,
): Promise<ExtractionResult> {
  return extract(readFileSync(dataset(relative)), path.basename(relative), extractOption, limits);
}

/** A plain RFC 4180 reader (quotes, doubled quotes, quoted line breaks), written for the tests. */
export function parseCsvText(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') inQuotes = false;
      else field += c;
    } else if (c === '"' && fieldStart) {
      inQuotes = true;
      fieldStart = false;
    } else if (c === delimiter) {
      row.push(field);
      field = '';
      fieldStart = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStart = true;
    } else {
      field += c;
      fieldStart = false;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

const MISSING = ['', 'na', 'n/a', 'null', 'none', 'nan', '?', '""', '#n/a'];
export const isMissing = (value: string): boolean => MISSING.includes(value.trim().toLowerCase());

/** The number a cell stands for, or null (plain decimals; decimal commas when asked). */
export function numberOf(value: string, decimalComma = false): number | null {
  const text = value.trim();
  if (/^[+-]?\d{16,}$/.test(text)) return null; // long digit strings are identifiers
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (decimalComma && /^[+-]?\d+,\d+$/.test(text)) return Number(text.replace(',', '.'));
  return null;
}

export interface Reference {
  count: number;
  missing: number;
  numbers: number[];
  distinct: number;
}

/** What a column's statistics must be, computed from its raw cells without the library. */
export function reference(cells: Array<string | number | null | undefined>, decimalComma = false): Reference {
  let missing = 0;
  const numbers: number[] = [];
  const keys = new Set<string>();
  for (const cell of cells) {
    if (cell === null || cell === undefined || (typeof cell === 'string' && isMissing(cell))) {
      missing++;
      continue;
    }
    const n = typeof cell === 'number' ? cell : numberOf(cell, decimalComma);
    if (n !== null) numbers.push(n);
    keys.add(n !== null ? `n:${n}` : `s:${String(cell).trim()}`);
  }
  return { count: cells.length - missing, missing, numbers, distinct: keys.size };
}

export function summary(numbers: number[]): { min: number; max: number; mean: number; std: number } {
  const n = numbers.length;
  const mean = numbers.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? numbers.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return { min: Math.min(...numbers), max: Math.max(...numbers), mean, std: Math.sqrt(variance) };
}

export function expectClose(actual: number | null, expected: number, relative = 1e-9): void {
  if (actual === null) throw new Error(`expected a number close to ${expected}, got null`);
  const tolerance = relative * Math.max(1, Math.abs(expected));
  if (Math.abs((actual as number) - expected) > tolerance) {
    throw new Error(`expected ${actual} to be within ${tolerance} of ${expected}`);
  }
}

export { buildZip, type ZipEntrySpec } from './zip-writer';
