import { Injectable } from '@nestjs/common';
import { MetadataExtractionInput, MetadataExtractionOptions, MetadataExtractor } from './metadata-extractor';

/**
 * Placeholder adapter until libs/extraction is wired in: what "minimal" keeps (name, date, content
 * type, size) for every file, without reading it.
 */
@Injectable()
export class BasicMetadataExtractor extends MetadataExtractor {
  async extract(input: MetadataExtractionInput, options: MetadataExtractionOptions): Promise<Record<string, unknown>> {
    input.stream.destroy();
    return {
      NAME: input.fileName,
      CONTENT_TYPE: input.contentType ?? 'application/octet-stream',
      SIZE: input.size ?? null,
      DATE: new Date().toISOString(),
      EXTRACT_OPTION: options.extractOption,
      STATUS: 'skipped',
      ERRORS: [],
    };
  }
}
