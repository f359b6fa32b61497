import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { DATASETS } from '../../testing/catalogue-test-app';
import { LibraryMetadataExtractor } from './library-metadata-extractor';
import { describeMetadataExtractorContract } from './metadata-extractor.contract';

describeMetadataExtractorContract('LibraryMetadataExtractor', () => new LibraryMetadataExtractor({ EXTRACTION_THREADS: 2 }), DATASETS);

describe('LibraryMetadataExtractor on a real CSV', () => {
  it('gives headers, row count and statistics', async () => {
    const file = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
    const lines = (await import('node:fs')).readFileSync(file, 'utf8').trim().split(/\r?\n/);
    const meta = (await new LibraryMetadataExtractor({ EXTRACTION_THREADS: 2 }).extract({ stream: createReadStream(file), fileName: 'co2.csv', contentType: 'text/csv', size: statSync(file).size }, { extractOption: 'metadata' })) as {
      FILE: { HEADERS: string[]; TOTAL_ROWS: number; STATS: Record<string, { MAX: number | null }> };
    };
    expect(meta.FILE.HEADERS).toEqual(lines[0].split(','));
    expect(meta.FILE.TOTAL_ROWS).toBe(lines.length - 1);
    const meanColumn = lines[0].split(',').findIndex((h) => /mean/i.test(h));
    const values = lines.slice(1).map((l) => Number(l.split(',')[meanColumn]));
    expect(meta.FILE.STATS[String(meanColumn)].MAX).toBeCloseTo(Math.max(...values), 6);
  });
});
