import { Inject, Injectable } from '@nestjs/common';
import { extractMetadata } from '@dc/extraction';
import { APP_CONFIG, type AppConfig } from '@dc/platform';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

/**
 * The real extractor: libs/extraction, per file type, streaming where the format allows. Hashed
 * columns are keyed with the owner's linkage key, given per extraction (docs/private-linkage.md).
 */
@Injectable()
export class LibraryMetadataExtractor extends MetadataExtractor {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'EXTRACTION_THREADS'>) {
    super();
  }

  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    try {
      const meta = await extractMetadata(input, {
        extractOption: options.extractOption,
        signal: options.signal,
        privateColumns: options.privateColumns,
        sketches: options.sketches,
        threads: { workers: this.config.EXTRACTION_THREADS },
      });
      return meta as unknown as Record<string, unknown>;
    } finally {
      // 'minimal' does not read the file, and an early stop leaves the rest unread: release it either way.
      if (!input.stream.destroyed) input.stream.destroy();
    }
  }
}
