import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MetadataExtractor } from './metadata-extractor';

const STATUSES = ['complete', 'partial', 'failed', 'skipped'];

/**
 * The contract every MetadataExtractor adapter keeps (run by each adapter's spec): META names the
 * file, says its status and lists its errors, bad input is reported rather than thrown, and the
 * input stream is never left open.
 */
export function describeMetadataExtractorContract(name: string, create: () => MetadataExtractor, datasets: string): void {
  describe(`MetadataExtractor contract: ${name}`, () => {
    const csv = path.join(datasets, 'csv/co2-annmean-gl.csv');

    it('describes a real file with its name, content type, status and errors', async () => {
      const stream = createReadStream(csv);
      const meta = await create().extract({ stream, fileName: 'co2.csv', contentType: 'text/csv', size: statSync(csv).size }, { extractOption: 'metadata' });
      expect(meta).toMatchObject({ NAME: 'co2.csv', CONTENT_TYPE: 'text/csv' });
      expect(STATUSES).toContain(meta.STATUS);
      expect(Array.isArray(meta.ERRORS)).toBe(true);
      expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
      expect(stream.destroyed || stream.readableEnded).toBe(true);
    });

    it('keeps to name, date, content type and size with extractOption minimal', async () => {
      const meta = await create().extract(
        { stream: createReadStream(csv), fileName: 'co2.csv', contentType: 'text/csv', size: 821 },
        { extractOption: 'minimal' },
      );
      expect(meta).toMatchObject({ NAME: 'co2.csv', CONTENT_TYPE: 'text/csv', SIZE: 821 });
      expect(typeof meta.DATE).toBe('string');
      expect(meta.FILE).toBeUndefined();
    });

    it('reports an empty file in META instead of throwing', async () => {
      const meta = await create().extract(
        { stream: Readable.from([]), fileName: 'empty.csv', contentType: 'text/csv', size: 0 },
        { extractOption: 'metadata' },
      );
      expect(meta.NAME).toBe('empty.csv');
      expect(STATUSES).toContain(meta.STATUS);
    });
  });
}
