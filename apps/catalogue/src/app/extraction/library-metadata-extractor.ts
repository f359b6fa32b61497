import { extractMetadata, SketchCollector } from '@dc/extraction';
import { extractInThread } from './extraction-thread';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

/**
 * The real extractor: libs/extraction, per file type, streaming where the format allows. Hashed
 * columns are keyed with the owner's linkage key, given per extraction (docs/private-linkage.md).
 * Large files are described in a worker thread (extraction-thread.ts), so the API keeps answering.
 */
export class LibraryMetadataExtractor extends MetadataExtractor {
  /**
   * Files of at least `threadMinBytes` go to a worker thread (EXTRACTION_THREAD_MIN_BYTES): below, starting
   * one costs more than the file holds the event loop. The thread runs `threadNice` nicer (EXTRACTION_THREAD_NICE).
   */
  constructor(
    private readonly threadMinBytes = 8 * 1024 * 1024,
    private readonly threadNice = 5,
  ) {
    super();
  }

  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    try {
      // Sketches other than a SketchCollector's watch rows as they come: those stay in this thread.
      const threaded = input.size !== undefined && input.size >= this.threadMinBytes && (!options.sketches || options.sketches instanceof SketchCollector);
      if (threaded) {
        const { meta, sketches } = await extractInThread(input, { extractOption: options.extractOption, privateColumns: options.privateColumns, sketches: options.sketches !== undefined, nice: this.threadNice }, options.signal);
        if (sketches && options.sketches instanceof SketchCollector) options.sketches.tables.push(...sketches);
        return meta;
      }
      const meta = await extractMetadata(input, { extractOption: options.extractOption, signal: options.signal, privateColumns: options.privateColumns, sketches: options.sketches });
      return meta as unknown as Record<string, unknown>;
    } finally {
      // 'minimal' does not read the file, and an early stop leaves the rest unread: release it either way.
      if (!input.stream.destroyed) input.stream.destroy();
    }
  }
}
