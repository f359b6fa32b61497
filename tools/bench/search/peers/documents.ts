import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { RecordDocument } from '@dc/search-index';
import { newestFirst } from './engine';

/**
 * The documents file of the engines that keep documents in the heap (ours, MiniSearch): what their
 * restart reads besides the index, one JSON document a line, newest first (so MiniSearch's
 * empty-query list needs no sort at load). Lines, not one JSON text: a million documents take
 * more than the longest string V8 makes (2^29 characters). SQLite keeps its documents in its
 * database file instead.
 */
const FILE = 'documents.ndjson';
const LINES_PER_WRITE = 10_000;

/** Writes values as lines of JSON; returns the bytes written. */
export function writeLines(file: string, values: unknown[]): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    for (let i = 0; i < values.length; i += LINES_PER_WRITE)
      bytes += writeSync(
        fd,
        `${values
          .slice(i, i + LINES_PER_WRITE)
          .map((value) => JSON.stringify(value))
          .join('\n')}\n`,
      );
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** The values of a file of JSON lines, in order. */
export function readLines<T>(file: string): T[] {
  const bytes = readFileSync(file);
  const values: T[] = [];
  for (let start = 0, end = bytes.indexOf(10); end >= 0; start = end + 1, end = bytes.indexOf(10, start))
    values.push(JSON.parse(bytes.toString('utf8', start, end)) as T);
  return values;
}

export function writeDocuments(dir: string, documents: Iterable<RecordDocument>): number {
  return writeLines(path.join(dir, FILE), [...documents].sort(newestFirst));
}

export function readDocuments(dir: string): RecordDocument[] {
  return readLines<RecordDocument>(path.join(dir, FILE));
}
