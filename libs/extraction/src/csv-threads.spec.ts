// Worker threads must describe a CSV as one thread does: the same META byte for byte when the file
// is one block (the default block is larger than these files), and in blocks the same META but for
// MEAN and STD combined from the blocks (equal to 12 digits here); the same answer whatever the
// chunks and however many threads; and no thread may outlive its extraction.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { csvThreadsKept, csvThreadsRunning, endKeptCsvThreads } from './csv-thread';
import { csvThreadsFor, DEFAULT_THREADS_MIN_BYTES } from './csv-threads';
import { extractMetadata, resolveLimits } from './extract';
import { ColumnPrivacy } from './private-columns';
import { MAX_SKETCHED_COLUMNS, SketchCollector } from './sketch';
import { DATASETS, streamOf } from './spec-support.fixture';
import type { ExtractionOptions } from './options';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';

interface Run {
  workers: number;
  chunkSize?: number;
  blockBytes?: number;
  extractOption?: Exclude<ExtractOption, 'minimal'>;
  limits?: Partial<ExtractionLimits>;
  privateColumns?: PrivateColumns;
  onInvalid?: ExtractionOptions['onInvalid'];
}

function describeWith(bytes: Buffer, fileName: string, run: Run): Promise<unknown> {
  const { workers, chunkSize = 64 * 1024, blockBytes, extractOption = 'samples', ...options } = run;
  return extractMetadata(
    { stream: streamOf(bytes, chunkSize), fileName, size: bytes.length },
    { ...options, extractOption, cellValues: 'raw', threads: { workers, minBytes: 0, blockBytes } },
  ).then(
    ({ DATE: _date, ...meta }) => meta,
    (error: Error) => ({ rejected: `${error.constructor.name} ${error.name}: ${error.message}` }),
  );
}

/** META (or the rejection) in one thread and in `workers` threads, for comparison. */
async function both(bytes: Buffer | string, fileName: string, run: Omit<Run, 'workers'> = {}, workers = 2): Promise<[unknown, unknown]> {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return [await describeWith(buffer, fileName, { ...run, workers: 1 }), await describeWith(buffer, fileName, { ...run, workers })];
}

/** A few MB of mixed columns: numbers, decimals, dates, categories, quoted commas and line breaks, missing values. */
function generatedCsv(rows: number): string {
  const lines = ['id,amount,when,category,comment,flag,empty'];
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ['river', 'housing', 'survey', 'data', 'north', 'school', 'health', 'price'];
  for (let i = 0; i < rows; i++) {
    const comment = Array.from({ length: 2 + Math.floor(next() * 5) }, () => words[Math.floor(next() * words.length)]).join(' ');
    const quoted = next() < 0.03 ? `"${comment},\n""more"""` : comment;
    const amount = next() < 0.02 ? 'NA' : (next() * 1e4 - 5e3).toFixed(3);
    lines.push(`${i},${amount},2024-0${1 + (i % 9)}-1${i % 10},cat${i % 17},${quoted},${next() < 0.5 ? 'yes' : 'no'},`);
  }
  return `${lines.join('\n')}\n`;
}

const CSV_DIR = path.join(DATASETS, 'csv');
const FILES = readdirSync(CSV_DIR).filter((name) => /\.(csv|tsv)$/i.test(name));

afterAll(() => endKeptCsvThreads());

describe('CSV statistics in worker threads', () => {
  afterEach(() => expect(csvThreadsRunning()).toBe(0));

  it('keeps its threads for the next file, which they describe as fresh ones do', async () => {
    await endKeptCsvThreads();
    const bytes = Buffer.from(generatedCsv(20_000));
    const fresh = await describeWith(bytes, 'first.csv', { workers: 2, extractOption: 'metadata', blockBytes: 16 * 1024 });
    expect(csvThreadsKept()).toBe(2);
    const again = await describeWith(bytes, 'first.csv', { workers: 2, extractOption: 'metadata', blockBytes: 16 * 1024 });
    expect(csvThreadsKept()).toBe(2);
    expect(again).toEqual(fresh);
  });

  it('finds the shared datasets', () => expect(FILES.length).toBeGreaterThanOrEqual(10));

  it.each(FILES)('%s: the same META in one and in two threads', async (name) => {
    const [one, two] = await both(readFileSync(path.join(CSV_DIR, name)), name);
    expect(two).toEqual(one);
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
  });

  it('a generated multi-MB CSV: the same META in one and in two threads', async () => {
    const bytes = Buffer.from(generatedCsv(60_000));
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const [one, two] = await both(bytes, 'generated.csv', { extractOption: 'metadata' });
    expect((one as { STATUS: string }).STATUS).toBe('complete');
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
  });

  it('the same META in three threads', async () => {
    const [one, three] = await both(generatedCsv(5_000), 'generated.csv', {}, 3);
    expect(JSON.stringify(three)).toBe(JSON.stringify(one));
  });

  const TRICKY: Array<[string, string | Buffer]> = [
    ['quoted line breaks', 'id,text\n1,"two\nlines"\n2,"crlf\r\ninside"\n3,plain\n'],
    ['decimal commas', 'x;y;label\n1,5;2;a\n-0,25;3,75;b\n"4,5";NA;c\n'],
    ['an unclosed quote', 'a,b\n1,"never closed\n2,3\n'],
    ['more cells than headers', 'a,b\n1,2,3\n4,5,"6"\n'],
    ['Latin-1 bytes', Buffer.from('name;city;value\nJos\xe9;K\xf6ln;1,5\nRen\xe9e;"Z\xfcrich; Altstadt";2,25\n', 'latin1')],
    ['no header', '1,2\n3,4\n'],
  ];
  it.each(TRICKY)('%s, whole and in chunks of 3 bytes', async (_case, text) => {
    for (const chunkSize of [1 << 20, 3]) {
      const [one, two] = await both(text, 'tricky.csv', { chunkSize });
      expect(two).toEqual(one);
    }
  });

  it('stops at the same limit, with the same message', async () => {
    const bytes = generatedCsv(5_000);
    for (const limits of [{ maxRowsScanned: 1234 }, { maxLineBytes: 40 }, { maxColumns: 3, maxErrors: 1 }]) {
      const [one, two] = await both(bytes, 'limited.csv', { limits, chunkSize: 4099 });
      expect(two).toEqual(one);
    }
  });

  it.each([
    ['empty', ''],
    ['binary', Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0x00, 0x01, 0x02])],
    ['blank lines only', '\n\n \n'],
  ])('a file that is %s fails as in one thread, reported or thrown', async (_case, bytes) => {
    const [reported, reportedInThreads] = await both(bytes, 'bad.csv');
    expect((reported as { STATUS: string }).STATUS).toBe('failed');
    expect(reportedInThreads).toEqual(reported);
    const [thrown, thrownInThreads] = await both(bytes, 'bad.csv', { onInvalid: 'throw' });
    expect(thrown).toEqual({ rejected: expect.stringMatching(/^CorruptFileError /) });
    expect(thrownInThreads).toEqual(thrown);
  });

  it('hashes, masks and excludes private columns as one thread does, notes included', async () => {
    const privateColumns: PrivateColumns = {
      hash: ['comment'],
      fuzzy: ['comment'],
      formats: [
        { column: 'amount', format: 'mask' },
        { column: 5, format: 'exclude' },
        { column: 'nowhere', format: 'mask' },
      ],
      summary: ['amount'],
      linkageKey: new Uint8Array(32).fill(7),
    };
    const [one, two] = await both(generatedCsv(2_000), 'private.csv', { privateColumns, extractOption: 'metadata' });
    expect((one as { ERRORS: string[] }).ERRORS).toContain('Private columns: this file has no column named "nowhere"');
    expect((one as { CLK_COLS?: string[] }).CLK_COLS).toEqual(['comment']);
    expect(two).toEqual(one);
  });

  it.each([
    ['a fresh collector', MAX_SKETCHED_COLUMNS],
    ['a collector with 5 columns left', 5],
  ])('sketches the columns as one thread does, with %s', async (_case, budget) => {
    const bytes = Buffer.from(generatedCsv(3_000));
    const privateColumns: PrivateColumns = {
      hash: ['category'],
      formats: [
        { column: 'when', format: 'exclude' },
        { column: 'flag', format: 'mask' },
      ],
      linkageKey: new Uint8Array(32).fill(3),
    };
    const sketched = async (workers: number) => {
      const sketches = new SketchCollector(budget);
      const { DATE: _date, ...meta } = await extractMetadata(
        { stream: streamOf(bytes), fileName: 'sketched.csv', size: bytes.length },
        { extractOption: 'metadata', sketches, privateColumns, threads: { workers, minBytes: 0 } },
      );
      return { meta, tables: sketches.tables, left: sketches.budgetLeft };
    };
    const one = await sketched(1);
    expect(one.tables[0].columns.length).toBe(Math.min(budget, 6));
    expect(await sketched(2)).toEqual(one);
  });

  it('stops its threads when the extraction is aborted, and does not keep them', async () => {
    await endKeptCsvThreads();
    const bytes = Buffer.from(generatedCsv(40_000));
    const controller = new AbortController();
    let runningAtAbort = 0;
    // Aborts while the threads are busy: after 20 chunks of 16 KiB, and the stream then goes on.
    function* chunks(): Generator<Buffer> {
      for (let i = 0; i < bytes.length; i += 16 * 1024) {
        if (i === 20 * 16 * 1024) {
          runningAtAbort = csvThreadsRunning();
          controller.abort(new Error('cancelled by the test'));
        }
        yield bytes.subarray(i, i + 16 * 1024);
      }
    }
    const stream = Readable.from(chunks(), { objectMode: false });
    const extraction = extractMetadata(
      { stream, fileName: 'aborted.csv', size: bytes.length },
      { extractOption: 'metadata', signal: controller.signal, threads: { workers: 2, minBytes: 0 } },
    );
    await expect(extraction).rejects.toThrow('cancelled by the test');
    expect(runningAtAbort).toBe(2);
    // The threads are terminated once the reading stops, shortly after the abort.
    for (let i = 0; i < 100 && csvThreadsRunning() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(csvThreadsKept()).toBe(0);
  });

  it('reads small files, files of unknown size, and files with other observers or prehashed columns in the calling thread', () => {
    const ctx = { option: 'metadata' as const, limits: resolveLimits(), fileName: 'a.csv', allowArchives: true };
    const big = DEFAULT_THREADS_MIN_BYTES;
    expect(csvThreadsFor({ ...ctx, size: big, threads: { workers: 2 } })).toBe(2);
    expect(csvThreadsFor({ ...ctx, size: big - 1, threads: { workers: 2 } })).toBe(1);
    expect(csvThreadsFor({ ...ctx, threads: { workers: 2, minBytes: 0 } })).toBe(1);
    expect(csvThreadsFor({ ...ctx, size: big, threads: { workers: 1 } })).toBe(1);
    expect(csvThreadsFor({ ...ctx, size: big, threads: { workers: 2 }, observers: new SketchCollector() })).toBe(2);
    expect(csvThreadsFor({ ...ctx, size: big, threads: { workers: 2 }, observers: { openTable: () => undefined } })).toBe(1);
    const prehashed = new ColumnPrivacy({ prehashed: ['id'], linkageKeyId: 'abc' });
    expect(csvThreadsFor({ ...ctx, size: big, threads: { workers: 2 }, privacy: prehashed })).toBe(1);
  });
});

/** `value` with every MEAN, STD, mean and std number cut to 12 significant digits (block figures combine those). */
function roundedMeans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(roundedMeans);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      typeof v === 'number' && ['MEAN', 'STD', 'mean', 'std'].includes(key) ? Number(v.toPrecision(12)) : roundedMeans(v),
    ]),
  );
}

describe('CSV statistics in blocks', () => {
  afterEach(() => expect(csvThreadsRunning()).toBe(0));
  const SMALL_BLOCKS = 16 * 1024;

  it.each(FILES)('%s in blocks of 16 KiB: the same META but for the last digits of MEAN and STD', async (name) => {
    const bytes = readFileSync(path.join(CSV_DIR, name));
    const one = await describeWith(bytes, name, { workers: 1, extractOption: 'metadata' });
    const blocks = await describeWith(bytes, name, { workers: 2, extractOption: 'metadata', blockBytes: SMALL_BLOCKS });
    expect(roundedMeans(blocks)).toEqual(roundedMeans(one));
  });

  it('the same answer whatever the chunks and however many threads', async () => {
    const bytes = Buffer.from(generatedCsv(20_000));
    const runs = await Promise.all([
      describeWith(bytes, 'generated.csv', { workers: 2, blockBytes: SMALL_BLOCKS }),
      describeWith(bytes, 'generated.csv', { workers: 3, blockBytes: SMALL_BLOCKS, chunkSize: 4099 }),
      describeWith(bytes, 'generated.csv', { workers: 2, blockBytes: SMALL_BLOCKS, chunkSize: 777 }),
    ]);
    expect(JSON.stringify(runs[1])).toBe(JSON.stringify(runs[0]));
    expect(JSON.stringify(runs[2])).toBe(JSON.stringify(runs[0]));
    const one = await describeWith(bytes, 'generated.csv', { workers: 1 });
    // Samples are drawn per block: real values of the column, as many, in row order.
    const samples = (meta: unknown) =>
      Object.values((meta as { FILE: { STATS: Record<string, { SAMPLE_VALS: string[] }> } }).FILE.STATS).map((s) => s.SAMPLE_VALS);
    const withoutSamples = (meta: unknown) => roundedMeans(JSON.parse(JSON.stringify(meta, (key, v) => (key === 'SAMPLE_VALS' ? undefined : v))));
    expect(withoutSamples(runs[0])).toEqual(withoutSamples(one));
    samples(runs[0]).forEach((values, i) => expect(values.length).toBe(samples(one)[i].length));
    const ids = samples(runs[0])[0].map(Number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it.each([
    ['a quote inside a field', (i: number) => (i === 9000 ? `${i},5'11",x` : `${i},${i % 7},word${i % 13}`)],
    ['mixed line ends', (i: number) => (i === 9000 ? `${i},1,x\r` : `${i},${i % 7},word${i % 13}`)],
    ['a byte order mark at a record start', (i: number) => (i === 9000 ? `\uFEFF${i},1,x` : `${i},${i % 7},word${i % 13}`)],
    ['an unclosed quote', (i: number) => (i === 9000 ? `${i},1,"open` : `${i},${i % 7},word${i % 13}`)],
  ])('%s far into the file: read from its block on as in one thread', async (_name, row) => {
    const bytes = Buffer.from(`id,n,word\n${Array.from({ length: 12_000 }, (_, i) => `${row(i)}\n`).join('')}`);
    for (const chunkSize of [64 * 1024, 5000]) {
      const one = await describeWith(bytes, 'odd.csv', { workers: 1, extractOption: 'metadata', chunkSize });
      const blocks = await describeWith(bytes, 'odd.csv', { workers: 2, extractOption: 'metadata', blockBytes: SMALL_BLOCKS, chunkSize });
      expect(roundedMeans(blocks)).toEqual(roundedMeans(one));
    }
  });

  it('Latin-1 bytes far into the file: the same encoding note and figures', async () => {
    const head = Buffer.from(`name,n\n${Array.from({ length: 6000 }, (_, i) => `naïve ${i},${i}\n`).join('')}`);
    const tail = Buffer.from(Array.from({ length: 6000 }, (_, i) => `caf\xe9 ${i},${i}\n`).join(''), 'latin1');
    const bytes = Buffer.concat([head, tail]);
    const one = await describeWith(bytes, 'latin.csv', { workers: 1, extractOption: 'metadata' });
    const blocks = await describeWith(bytes, 'latin.csv', { workers: 2, extractOption: 'metadata', blockBytes: SMALL_BLOCKS });
    expect((one as { ERRORS: string[] }).ERRORS[0]).toMatch(/^Invalid UTF-8 at byte \d+/);
    expect(roundedMeans(blocks)).toEqual(roundedMeans(one));
  });

  it('a block that never ends (an unclosed quote) is read as text from its start, and stops there', async () => {
    // One thread reads the first 64 KiB as one piece and so stops before any row; blocks keep the rows before the quote's block.
    const rows = Array.from({ length: 12_000 }, (_, i) => (i === 3000 ? `${i},"open` : `${i},word`));
    const bytes = Buffer.from(`id,text\n${rows.join('\n')}\n`);
    const blocks = (await describeWith(bytes, 'open.csv', {
      workers: 2,
      extractOption: 'metadata',
      blockBytes: SMALL_BLOCKS,
      limits: { maxLineBytes: 1000 },
    })) as {
      STATUS: string;
      ERRORS: string[];
      FILE: { TOTAL_ROWS: number };
    };
    expect(blocks.STATUS).toBe('partial');
    const stoppedAt = Number(
      /^Stopped at record (\d+): a record longer than 1000 characters \(maxLineBytes\), or an unclosed quote$/.exec(blocks.ERRORS[0])?.[1],
    );
    expect(blocks.FILE.TOTAL_ROWS).toBe(stoppedAt - 2);
    expect(stoppedAt).toBeLessThanOrEqual(3002);
  });

  it('a record longer than maxLineBytes stops reading before its block', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => (i === 9000 ? `${i},${'x'.repeat(500)}` : `${i},word`));
    const bytes = Buffer.from(`id,text\n${rows.join('\n')}\n`);
    const blocks = (await describeWith(bytes, 'long.csv', {
      workers: 2,
      extractOption: 'metadata',
      blockBytes: SMALL_BLOCKS,
      limits: { maxLineBytes: 200 },
    })) as {
      STATUS: string;
      ERRORS: string[];
      FILE: { TOTAL_ROWS: number };
    };
    expect(blocks.STATUS).toBe('partial');
    const stoppedAt = Number(/^Stopped at record (\d+): a record longer than 200 characters/.exec(blocks.ERRORS[0])?.[1]);
    // The rows of the blocks before the long record's, whole: record numbers count the header.
    expect(blocks.FILE.TOTAL_ROWS).toBe(stoppedAt - 2);
    expect(stoppedAt).toBeLessThanOrEqual(9002);
    expect(stoppedAt).toBeGreaterThan(9002 - SMALL_BLOCKS / 5);
  });

  it('sketches in blocks as one thread does (fewer numbers than a sketch keeps)', async () => {
    const bytes = Buffer.from(generatedCsv(8_000));
    const sketched = async (workers: number) => {
      const sketches = new SketchCollector();
      await extractMetadata(
        { stream: streamOf(bytes), fileName: 's.csv', size: bytes.length },
        { extractOption: 'metadata', sketches, threads: { workers, minBytes: 0, blockBytes: SMALL_BLOCKS } },
      );
      return sketches.tables;
    };
    expect(roundedMeans(await sketched(2))).toEqual(roundedMeans(await sketched(1)));
  });
});
