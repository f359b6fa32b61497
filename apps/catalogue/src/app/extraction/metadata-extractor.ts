import type { Readable } from 'node:stream';
import type { PrivateColumns, TableObserverFactory } from '@dc/extraction';
import type { ExtractOption } from '../record-model/record';

export interface MetadataExtractionInput {
  stream: Readable;
  fileName: string;
  contentType?: string;
  size?: number;
}

export interface MetadataExtractionOptions {
  extractOption: ExtractOption;
  /** Aborted when the worker gives up (time-out, shutdown); the stream is destroyed as well. */
  signal?: AbortSignal;
  /** Columns to hash (with the linkage key), mask or exclude: no raw value of them may reach META. */
  privateColumns?: PrivateColumns;
  /** Sees every table's rows in the same pass: column sketches for the relations service. */
  sketches?: TableObserverFactory;
}

/**
 * Port: describes one file as the spec's META (NAME, CONTENT_TYPE, SIZE, DATE, STATUS, FILE with
 * HEADERS, STATS and TOTAL_ROWS, ERRORS, ...). Used as its own injection token. It reports bad
 * input inside META (STATUS failed, ERRORS) and rejects only when it could not read at all.
 */
export abstract class MetadataExtractor {
  abstract extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>>;
}
