import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { extractMetadata, SketchCollector } from '@dc/extraction';
import { APP_CONFIG, type AppConfig } from '@dc/platform';
import { ExtractionThreads } from './extraction-thread';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

export type LibraryExtractorSettings = Pick<AppConfig, 'EXTRACTION_THREADS' | 'EXTRACTION_THREAD_MIN_BYTES' | 'EXTRACTION_THREAD_NICE'>;

/**
 * The real extractor: libs/extraction, per file type, streaming where the format allows. Hashed
 * columns are keyed with the owner's linkage key, given per extraction (docs/private-linkage.md).
 * Files of at least EXTRACTION_THREAD_MIN_BYTES are described in a worker thread running
 * EXTRACTION_THREAD_NICE nicer (extraction-thread.ts), whatever their type, so the API keeps
 * answering; a large CSV is shared there among the library's EXTRACTION_THREADS threads. The
 * worker thread is kept from file to file (ExtractionThreads).
 */
@Injectable()
export class LibraryMetadataExtractor extends MetadataExtractor implements OnApplicationShutdown {
  private readonly workers: ExtractionThreads;

  constructor(@Inject(APP_CONFIG) private readonly config: LibraryExtractorSettings) {
    super();
    this.workers = new ExtractionThreads({ nice: config.EXTRACTION_THREAD_NICE });
  }

  /** After every module's destroy hook: the extraction queue has stopped and given back the file it was describing. */
  async onApplicationShutdown(): Promise<void> {
    await this.workers.close();
  }

  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    const threads = { workers: this.config.EXTRACTION_THREADS };
    try {
      // Sketches other than a SketchCollector's watch rows as they come: those stay in this thread.
      const threaded =
        input.size !== undefined && input.size >= this.config.EXTRACTION_THREAD_MIN_BYTES && (!options.sketches || options.sketches instanceof SketchCollector);
      if (threaded) {
        const job = { extractOption: options.extractOption, privateColumns: options.privateColumns, sketches: options.sketches !== undefined, threads };
        const { meta, sketches } = await this.workers.extract(input, job, options.signal);
        if (sketches && options.sketches instanceof SketchCollector) options.sketches.tables.push(...sketches);
        return meta;
      }
      const meta = await extractMetadata(input, {
        extractOption: options.extractOption,
        signal: options.signal,
        privateColumns: options.privateColumns,
        sketches: options.sketches,
        threads,
      });
      return meta as unknown as Record<string, unknown>;
    } finally {
      // 'minimal' does not read the file, and an early stop leaves the rest unread: release it either way.
      if (!input.stream.destroyed) input.stream.destroy();
    }
  }
}
