import type { Readable } from 'node:stream';
import type { ColumnPrivacy } from './private-columns';
import type { CsvThreads } from './options';
import type { TableObserverFactory } from './table-observer';
import type { ExtractionLimits, ExtractionResult, ExtractOption } from './types';

export interface ExtractorContext {
  option: Exclude<ExtractOption, 'minimal'>;
  limits: ExtractionLimits;
  fileName: string;
  size?: number;
  /** False inside an archive: nested archives are not opened (zip-of-zips bombs). */
  allowArchives: boolean;
  /** Private columns of every table of the file (archive members included); undefined when none. */
  privacy?: ColumnPrivacy;
  /** Column sketches of every table (ExtractionOptions.sketches). */
  observers?: TableObserverFactory;
  /** Worker threads for large CSV files (ExtractionOptions.threads). */
  threads?: CsvThreads;
}

/** What an extractor adds to the common fields of a result. */
export type Extracted = Omit<ExtractionResult, 'NAME' | 'CONTENT_TYPE' | 'SIZE' | 'DATE' | 'TYPE' | 'EXTRACT_OPTION'> & {
  /** Bytes read from the stream, when the whole stream was read. */
  bytesRead?: number;
};

export type Extractor = (stream: Readable, ctx: ExtractorContext) => Promise<Extracted>;
