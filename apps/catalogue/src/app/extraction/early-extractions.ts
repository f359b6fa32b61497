// Statistics as the upload ends (issue 26): a large CSV is described from a copy of its bytes while
// they are being stored, so the queue's worker, when it claims the file, takes META from here instead
// of reading the object back and describing it only then. The queue stays the one way META is
// stored and published: this only answers its worker's question "what does the file hold?" sooner.
// A result is given only for the choices it was made with (the extract option, no private columns):
// anything else, a failure, or a file claimed by another instance goes the usual way, and a result
// nobody took is dropped after RESULT_TTL_MS.
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PassThrough, type Writable } from 'node:stream';
import type { Logger } from 'pino';
import { fileKindOf, SketchCollector, type TableSketch } from '@dc/extraction';
import { APP_CONFIG, type AppConfig, LOGGER } from '@dc/platform';
import { privateColumnFields } from '../record-model/private-columns';
import { extractOptionField } from '../record-model/record-fields';
import type { ExtractOption } from '../record-model/record';
import type { FilePartStart, UploadCopies } from '../uploads/busboy-multipart';
import { MetadataExtractor } from './metadata-extractor';

/** A result not claimed this long after it ended is dropped (the upload failed, or another instance claimed the file). */
export const RESULT_TTL_MS = 5 * 60_000;

/**
 * How far the copy may run ahead of the extraction before it holds the upload back: a file smaller
 * than this is never held back, and for a larger one a CSV thread that frees up finds its next block
 * (4 MiB) already here instead of waiting for the upload to resume. One upload is copied at a time.
 */
const COPY_BUFFER_BYTES = 16 * 1024 * 1024;

export type EarlyExtractionSettings = Pick<AppConfig, 'EXTRACT_WHILE_UPLOADING' | 'EXTRACTION_THREAD_MIN_BYTES'>;

/** A file part as it starts to arrive, with the request's announced length: the file's size or a little more (the form around it). */
export type UploadedFilePart = FilePartStart & { announcedBytes: number };

/** What the file holds, as the worker stores it. */
export interface EarlyResult {
  meta: Record<string, unknown>;
  sketches: TableSketch[];
}

/** One file's extraction from its upload. */
export interface EarlyExtraction {
  fileName: string;
  contentType: string;
  extractOption: ExtractOption;
  /** Null when the extraction failed or was stopped: the worker then reads the file itself. */
  result: Promise<EarlyResult | null>;
  abort: AbortController;
  expiry?: NodeJS.Timeout;
}

@Injectable()
export class EarlyExtractions implements OnModuleDestroy {
  private readonly entries = new Map<string, EarlyExtraction>();
  private readonly logger: Logger;
  /** Extractions under way; one at a time, so concurrent uploads do not each take a thread. */
  private running = 0;

  constructor(
    private readonly extractor: MetadataExtractor,
    @Inject(APP_CONFIG) private readonly config: EarlyExtractionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'early-extractions' });
  }

  /** Files whose early result is kept (or still being made) for the worker. */
  get size(): number {
    return this.entries.size;
  }

  /** Early extractions under way. */
  get describing(): number {
    return this.running;
  }

  /** The copies of one request's files, given the length it announced. */
  forUpload(announcedBytes: number): UploadCopies {
    return { begin: (part) => this.begin({ ...part, announcedBytes }), discard: (key) => this.discard(key) };
  }

  /**
   * A stream to copy the part's bytes into while it is stored, when it is a CSV large enough for the
   * extraction thread (so the API's own thread is never used), without private columns asked for
   * before it, and no other file is being described this way; null otherwise. The copy paces the
   * upload like the store does (backpressure); once extraction stops reading, it no longer does.
   */
  begin(part: UploadedFilePart): Writable | null {
    // The option as the form's validation will read it; a value it refuses ends the upload anyway.
    const asked = extractOptionField.safeParse(part.fields.extractOption);
    const extractOption = asked.success ? asked.data : 'minimal';
    if (!this.config.EXTRACT_WHILE_UPLOADING || this.running > 0 || extractOption === 'minimal') return null;
    if (part.announcedBytes < Math.max(1, this.config.EXTRACTION_THREAD_MIN_BYTES) || fileKindOf(part.fileName, part.contentType) !== 'csv') return null;
    if (Object.keys(part.fields).some((name) => Object.hasOwn(privateColumnFields, name))) return null;
    const copy = new PassThrough({ highWaterMark: COPY_BUFFER_BYTES });
    const abort = new AbortController();
    const sketches = new SketchCollector();
    this.running++;
    const result = this.extractor
      .extract(
        // The announced size chooses the library's threads as the stored size would; the worker sets SIZE.
        { stream: copy, fileName: part.fileName, contentType: part.contentType, size: part.announcedBytes },
        { extractOption, signal: abort.signal, sketches },
      )
      .then((meta): EarlyResult => ({ meta, sketches: sketches.tables }))
      .catch((error: Error) => {
        if (!abort.signal.aborted) this.logger.warn({ err: error, key: part.key }, 'extraction while uploading failed; the worker reads the file');
        return null;
      })
      .finally(() => {
        this.running--;
        copy.destroy();
        const entry = this.entries.get(part.key);
        if (entry?.result === result) entry.expiry = setTimeout(() => this.discard(part.key), RESULT_TTL_MS).unref();
      });
    this.entries.set(part.key, { fileName: part.fileName, contentType: part.contentType, extractOption, result, abort });
    return copy;
  }

  /**
   * The early result for the stored file, taken once, if it was described with the choices the
   * worker has (same name, type and extract option, no private columns); null to read it as usual.
   */
  take(key: string, wanted: { fileName: string; contentType: string; extractOption: ExtractOption; privateColumns: unknown }): EarlyExtraction | null {
    const entry = this.remove(key);
    if (!entry) return null;
    const same = entry.fileName === wanted.fileName && entry.contentType === wanted.contentType && entry.extractOption === wanted.extractOption;
    if (same && !wanted.privateColumns) return entry;
    entry.abort.abort();
    return null;
  }

  /** Stops and forgets the file's early extraction (its upload failed, or it was not wanted). */
  discard(key: string): void {
    this.remove(key)?.abort.abort();
  }

  /** The file's entry, no longer kept. */
  private remove(key: string): EarlyExtraction | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    clearTimeout(entry?.expiry);
    return entry;
  }

  onModuleDestroy(): void {
    for (const key of [...this.entries.keys()]) this.discard(key);
  }
}
