// The extraction worker threads: one kept from file to file, a fresh one after an abort, one each
// for files described at once, and the kept one ended once idle.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DATASETS } from '../../testing/catalogue-test-app';
import { ExtractionThreads } from './extraction-thread';

const CSV = path.join(DATASETS, 'csv/sp500-constituents.csv');
const job = { extractOption: 'metadata' as const, sketches: true };
const csvInput = () => ({ stream: createReadStream(CSV, { highWaterMark: 4096 }), fileName: 'sp500.csv', contentType: 'text/csv', size: statSync(CSV).size });
const rowsOf = (meta: Record<string, unknown>) => (meta.FILE as { TOTAL_ROWS: number }).TOTAL_ROWS;

/** Resolves once `condition` holds, looking again after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('ExtractionThreads', () => {
  let threads: ExtractionThreads;
  beforeEach(() => (threads = new ExtractionThreads({ nice: 0 })));
  afterEach(() => threads.close());

  it('describes one file after another in the same worker, also after failures, with chunks still under way', async () => {
    const first = await threads.extract(csvInput(), job);
    expect(rowsOf(first.meta)).toBe(503);
    expect(first.sketches).toHaveLength(1);
    // NUL bytes: the extraction stops at the first chunk while the rest of the 2 MB is still being posted.
    const binary = Readable.from(Array.from({ length: 512 }, () => Buffer.alloc(4096)));
    const failed = await threads.extract({ stream: binary, fileName: 'zeros.csv', size: 512 * 4096 }, job);
    expect(failed.meta).toMatchObject({ STATUS: 'failed', ERRORS: [expect.stringMatching(/binary data/)] });
    const broken = new Readable({
      read() {
        this.destroy(new Error('storage went away'));
      },
    });
    await expect(threads.extract({ stream: broken, fileName: 'gone.csv', size: 1e6 }, job)).rejects.toThrow('storage went away');
    const again = await threads.extract(csvInput(), job);
    expect(again.meta).toEqual({ ...first.meta, DATE: again.meta.DATE });
    expect(threads.started).toBe(1);
    expect(threads.keepsWorker).toBe(true);
  });

  it('hands over the chunks that are all of their buffer and copies the views into a larger one, describing the file alike', async () => {
    const bytes = readFileSync(CSV);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096));
    const whole = pieces.map((piece) => Buffer.from(new Uint8Array(piece).buffer)); // each all of a buffer of its own
    const views = pieces.map((piece) => Buffer.concat([Buffer.alloc(1), piece]).subarray(1)); // each a view past a buffer's first byte
    const described = async (chunks: Buffer[]) =>
      (await threads.extract({ stream: Readable.from(chunks), fileName: 'sp500.csv', size: bytes.length }, job)).meta;
    const fromWhole = await described(whole);
    const fromViews = await described(views);
    expect(rowsOf(fromWhole)).toBe(503);
    expect(fromViews).toEqual({ ...fromWhole, DATE: fromViews.DATE });
    // Handed over: the stream's chunks were moved to the worker (detached here); the views were copied and are intact.
    expect(whole.every((chunk) => chunk.byteLength === 0)).toBe(true);
    expect(Buffer.concat(views).equals(bytes)).toBe(true);
  });

  it('ends the worker of an aborted file and describes the next one in a fresh worker', async () => {
    await threads.extract(csvInput(), job);
    const open = new Readable({ read() {} });
    open.push('a,b\n1,2\n');
    const abort = new AbortController();
    const aborted = threads.extract({ stream: open, fileName: 'open.csv', size: 1e9 }, job, abort.signal);
    abort.abort(new Error('timed out'));
    await expect(aborted).rejects.toThrow('timed out');
    expect(threads.keepsWorker).toBe(false);
    expect(rowsOf((await threads.extract(csvInput(), job)).meta)).toBe(503);
    expect(threads.started).toBe(2);
  });

  it('gives files described at once a worker each, and keeps one of them afterwards', async () => {
    const both = await Promise.all([threads.extract(csvInput(), job), threads.extract(csvInput(), job)]);
    expect(both.map(({ meta }) => rowsOf(meta))).toEqual([503, 503]);
    expect(threads.started).toBe(2);
    expect(threads.keepsWorker).toBe(true);
    await threads.extract(csvInput(), job);
    expect(threads.started).toBe(2);
  });

  it('ends the kept worker once it has been idle for the set time', async () => {
    const brief = new ExtractionThreads({ nice: 0 }, 1);
    try {
      await brief.extract(csvInput(), job);
      await until(() => !brief.keepsWorker);
      expect(rowsOf((await brief.extract(csvInput(), job)).meta)).toBe(503);
      expect(brief.started).toBe(2);
    } finally {
      await brief.close();
    }
  });
});
