// What a caller gives extractMetadata: the file's stream and names, and the options of its extraction.
import type { Readable } from 'node:stream';
import type { TableObserverFactory } from './table-observer';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';

export interface ExtractionInput {
  stream: Readable;
  fileName: string;
  contentType?: string;
  size?: number;
}

export interface CsvThreads {
  /** Worker threads for a large CSV (1: read in the calling thread). */
  workers?: number;
  /** Smaller files are read in the calling thread. */
  minBytes?: number;
  /** Bytes of a block of records a thread is handed (the default suits files; tests make blocks small). */
  blockBytes?: number;
}

export interface ExtractionOptions {
  extractOption: ExtractOption;
  limits?: Partial<ExtractionLimits>;
  /**
   * 'report' (default): an empty, corrupt, too large or unsupported file resolves with STATUS failed or
   * skipped and ERRORS. 'throw': it rejects with UnsupportedFileError, CorruptFileError or
   * ExtractionLimitError instead. Errors of the stream itself always reject.
   */
  onInvalid?: 'report' | 'throw';
  /** Aborting destroys the input stream and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Columns to hash, mask or exclude; ignored with extractOption minimal (nothing is read). */
  privateColumns?: PrivateColumns;
  /**
   * 'masked' (default): with extractOption minimal or metadata the result shows no cell of the data
   * (withoutCellValues: values as shape masks, no words of cells). 'raw': the profile as computed,
   * for this library's own tests and benchmarks; never store or show it.
   */
  cellValues?: 'masked' | 'raw';
  /**
   * Worker threads for large CSV files (csv-threads.ts): each thread reads the same bytes and
   * describes its share of the columns; META is the same as in one thread. `workers` defaults to
   * min(2, available cores), 1 reads in the calling thread; files under `minBytes` (default 32 MiB),
   * of unknown size, with observers other than a SketchCollector or with prehashed columns are read
   * in the calling thread.
   */
  threads?: CsvThreads;
  /** Sees every table's rows, e.g. a SketchCollector gathering column sketches in the same pass. */
  sketches?: TableObserverFactory;
}
