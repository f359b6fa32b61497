import { createHmac } from 'node:crypto';
import { extractMetadata } from '@dc/extraction';
import type { AppConfig } from '@dc/platform';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

/**
 * The key of hashed private columns, derived from ENCRYPTION_KEY: one key for the whole product, so
 * equal values hash equally in every record (linkable), and nobody without the key can hash guesses
 * offline. Changing ENCRYPTION_KEY changes the hashes of files extracted afterwards.
 */
export function columnHashKey(config: Pick<AppConfig, 'ENCRYPTION_KEY'>): Buffer {
  if (!config.ENCRYPTION_KEY) throw new Error('ENCRYPTION_KEY is not set: hashed private columns use a key derived from it');
  return createHmac('sha256', Buffer.from(config.ENCRYPTION_KEY, 'base64')).update('catalogue-column-hashing').digest();
}

/** The real extractor: libs/extraction, per file type, streaming where the format allows. */
export class LibraryMetadataExtractor extends MetadataExtractor {
  constructor(private readonly hashKey: Buffer) {
    super();
  }

  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    try {
      const privateColumns = options.privateColumns && { ...options.privateColumns, hashKey: this.hashKey };
      const meta = await extractMetadata(input, { extractOption: options.extractOption, signal: options.signal, privateColumns });
      return meta as unknown as Record<string, unknown>;
    } finally {
      // 'minimal' does not read the file, and an early stop leaves the rest unread: release it either way.
      if (!input.stream.destroyed) input.stream.destroy();
    }
  }
}
