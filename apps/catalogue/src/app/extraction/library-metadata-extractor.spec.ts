import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type PrivateColumns, SketchCollector } from '@dc/extraction';
import { DATASETS } from '../../testing/catalogue-test-app';
import { ExtractionThreads } from './extraction-thread';
import { LibraryMetadataExtractor } from './library-metadata-extractor';
import { describeMetadataExtractorContract } from './metadata-extractor.contract';

const made: LibraryMetadataExtractor[] = [];
afterAll(() => Promise.all(made.map((extractor) => extractor.onApplicationShutdown())));

/** The extractor with the product's defaults, files of `threadMinBytes` and more in the worker thread (each keeps one worker: ended after the tests). */
const extractor = (threadMinBytes = 8 * 1024 * 1024) => {
  const created = new LibraryMetadataExtractor({ EXTRACTION_THREADS: 2, EXTRACTION_THREAD_MIN_BYTES: threadMinBytes, EXTRACTION_THREAD_NICE: 5 });
  made.push(created);
  return created;
};

describeMetadataExtractorContract('LibraryMetadataExtractor', () => extractor(), DATASETS);
// Every file, however small, through the worker thread.
describeMetadataExtractorContract('LibraryMetadataExtractor in a worker thread', () => extractor(0), DATASETS);

describe('LibraryMetadataExtractor on a real CSV', () => {
  it('gives headers, row count and statistics', async () => {
    const file = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
    const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    const meta = (await extractor().extract(
      { stream: createReadStream(file), fileName: 'co2.csv', contentType: 'text/csv', size: statSync(file).size },
      { extractOption: 'metadata' },
    )) as {
      FILE: { HEADERS: string[]; TOTAL_ROWS: number; STATS: Record<string, { MAX: number | null }> };
    };
    expect(meta.FILE.HEADERS).toEqual(lines[0].split(','));
    expect(meta.FILE.TOTAL_ROWS).toBe(lines.length - 1);
    const meanColumn = lines[0].split(',').findIndex((h) => /mean/i.test(h));
    const values = lines.slice(1).map((l) => Number(l.split(',')[meanColumn]));
    expect(meta.FILE.STATS[String(meanColumn)].MAX).toBeCloseTo(Math.max(...values), 6);
  });
});

describe('LibraryMetadataExtractor in a worker thread', () => {
  const file = path.join(DATASETS, 'csv/sp500-constituents.csv');
  const privateColumns: PrivateColumns = {
    hash: ['Symbol'],
    formats: [
      { column: 'Security', format: 'mask' },
      { column: 'CIK', format: 'exclude' },
    ],
    linkageKey: new Uint8Array(32).fill(5),
  };
  // Small chunks, so the file crosses to the thread in many messages.
  const describeWith = async (chosen: LibraryMetadataExtractor) => {
    const sketches = new SketchCollector();
    const input = { stream: createReadStream(file, { highWaterMark: 4096 }), fileName: 'sp500.csv', contentType: 'text/csv', size: statSync(file).size };
    const { DATE: _date, ...meta } = await chosen.extract(input, { extractOption: 'samples', privateColumns, sketches });
    return { meta, sketches: sketches.tables, stream: input.stream };
  };

  it('answers the META and the sketches of the same file described in this thread', async () => {
    // The real threads, watched: the test can tell which path a file took.
    const threads = jest.spyOn(ExtractionThreads.prototype, 'extract');
    const here = await describeWith(extractor(Infinity));
    expect(threads).not.toHaveBeenCalled();
    const threaded = await describeWith(extractor(0));
    expect(threads).toHaveBeenCalledTimes(1);
    threads.mockRestore();
    expect((threaded.meta.FILE as { TOTAL_ROWS: number }).TOTAL_ROWS).toBeGreaterThan(400);
    expect(threaded.sketches.length).toBe(1);
    expect(threaded.meta).toEqual(here.meta);
    expect(threaded.sketches).toEqual(here.sketches);
    expect(threaded.stream.destroyed).toBe(true);
  });

  it('an .xlsx (streamed sheet by sheet by the library) gives the META and sketches of the same workbook described in this thread', async () => {
    const workbook = path.join(DATASETS, 'excel/off-year-turnout-2023.xlsx');
    const describeBook = async (chosen: LibraryMetadataExtractor) => {
      const sketches = new SketchCollector();
      const input = { stream: createReadStream(workbook, { highWaterMark: 4096 }), fileName: 'turnout.xlsx', size: statSync(workbook).size };
      const { DATE: _date, ...meta } = await chosen.extract(input, {
        extractOption: 'samples',
        privateColumns: { hash: ['NAME'], linkageKey: new Uint8Array(32).fill(5) },
        sketches,
      });
      return { meta, sketches: sketches.tables };
    };
    const here = await describeBook(extractor(Infinity));
    const threaded = await describeBook(extractor(0));
    expect(threaded.meta.STATUS).toBe('complete');
    expect((threaded.meta.SHEETS as unknown[]).length).toBe(6);
    expect(threaded.sketches.length).toBeGreaterThan(1); // as many sheets as the file's column budget reaches
    expect(threaded.meta).toEqual(here.meta);
    expect(threaded.sketches).toEqual(here.sketches);
  });

  it('an .xls (its BIFF8 records walked sheet by sheet by the library) gives the META and sketches of the same workbook described in this thread', async () => {
    const workbook = path.join(DATASETS, 'excel/titanic3.xls');
    const describeBook = async (chosen: LibraryMetadataExtractor) => {
      const sketches = new SketchCollector();
      const input = { stream: createReadStream(workbook, { highWaterMark: 4096 }), fileName: 'titanic3.xls', size: statSync(workbook).size };
      const { DATE: _date, ...meta } = await chosen.extract(input, {
        extractOption: 'samples',
        privateColumns: { hash: ['name'], linkageKey: new Uint8Array(32).fill(5) },
        sketches,
      });
      return { meta, sketches: sketches.tables };
    };
    const here = await describeBook(extractor(Infinity));
    const threaded = await describeBook(extractor(0));
    expect(threaded.meta.STATUS).toBe('complete');
    expect((threaded.meta.FILE as { TOTAL_ROWS: number }).TOTAL_ROWS).toBe(1309);
    expect(threaded.meta.ENCRYPTED_COLS).toEqual(['name']);
    expect(threaded.sketches.length).toBe(1);
    expect(threaded.meta).toEqual(here.meta);
    expect(threaded.sketches).toEqual(here.sketches);
  });

  it('rejects with the reason when aborted, without waiting for the file to end', async () => {
    const stream = new Readable({ read() {} });
    stream.push('a,b\n1,2\n');
    const abort = new AbortController();
    const extraction = extractor(0).extract({ stream, fileName: 'open.csv', size: 1e9 }, { extractOption: 'metadata', signal: abort.signal });
    setTimeout(() => abort.abort(new Error('timed out')), 50);
    await expect(extraction).rejects.toThrow('timed out');
    expect(stream.destroyed).toBe(true);
  });

  it('passes a failing stream on as a failure', async () => {
    const stream = new Readable({
      read() {
        this.destroy(new Error('storage went away'));
      },
    });
    await expect(extractor(0).extract({ stream, fileName: 'gone.csv', size: 1e9 }, { extractOption: 'metadata' })).rejects.toThrow('storage went away');
  });
});
