import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { ColumnAccumulator } from './column';
import { DistinctCounter } from './distinct';
import { extractMetadata } from './extract';
import { dataset, extract, extractDataset, parseCsvText } from './spec-support.fixture';
import { DEFAULT_LIMITS } from './types';
import { TopWords, words } from './words';

describe('extract options', () => {
  it('minimal gives name, date, content type and size without reading the stream', async () => {
    let reads = 0;
    const stream = new Readable({
      read() {
        reads++;
        this.push(null);
      },
    });
    const result = await extractMetadata({ stream, fileName: 'gdp.csv', size: 576746 }, { extractOption: 'minimal' });
    expect(reads).toBe(0);
    expect(result).toEqual({
      NAME: 'gdp.csv',
      CONTENT_TYPE: 'text/csv',
      SIZE: 576746,
      DATE: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      TYPE: 'csv',
      EXTRACT_OPTION: 'minimal',
      STATUS: 'skipped',
      ERRORS: [],
    });
  });

  it('samples gives real values from the whole column; metadata only synthetic ones', async () => {
    const text = readFileSync(dataset('csv/sp500-constituents.csv'), 'utf8');
    const [header, ...rows] = parseCsvText(text, ',');
    const samples = await extractDataset('csv/sp500-constituents.csv', 'samples');
    const metadata = await extractDataset('csv/sp500-constituents.csv', 'metadata');
    expect(samples.SAMPLES).toBe('real');
    expect(metadata.SAMPLES).toBe('synthetic');
    header.forEach((_, i) => {
      const values = new Set(rows.map((row) => row[i].trim()));
      const real = samples.FILE?.STATS[String(i)].SAMPLE_VALS ?? [];
      expect(real).toHaveLength(10);
      for (const value of real) expect(values.has(value)).toBe(true);
    });
    // Sampled across the file, not just its first rows (Symbol is unique per row).
    const symbol = header.indexOf('Symbol');
    const firstRows = new Set(rows.slice(0, 50).map((row) => row[symbol]));
    expect(samples.FILE?.STATS[String(symbol)].SAMPLE_VALS.filter((v) => !firstRows.has(v)).length).toBeGreaterThan(5);
    const security = header.indexOf('Security');
    const synthetic = metadata.FILE?.STATS[String(security)].SAMPLE_VALS ?? [];
    expect(synthetic.length).toBeGreaterThan(0);
    for (const mask of synthetic) expect(mask).toMatch(/^[Xx9\s\W]+$/);
    const cik = metadata.FILE?.STATS[String(header.indexOf('CIK'))];
    expect(cik?.SAMPLE_VALS[0]).toBe(String(cik?.MIN));
    expect(cik?.SAMPLE_VALS[4]).toBe(String(cik?.MAX));
  });

  it('the content type comes from the caller, else from the extension; the type from the extension, else the content type', async () => {
    const result = await extractMetadata(
      { stream: Readable.from([Buffer.from('a\n1\n')]), fileName: 'export', contentType: 'text/csv; charset=utf-8' },
      { extractOption: 'metadata' },
    );
    expect(result).toMatchObject({ TYPE: 'csv', CONTENT_TYPE: 'text/csv; charset=utf-8', STATUS: 'complete', SIZE: 4 });
  });
});

describe('column statistics', () => {
  const ctx = { option: 'metadata' as const, limits: { ...DEFAULT_LIMITS }, decimalComma: false, distinctCap: 1000 };

  it('Welford mean and sample deviation, min, max, missing and duplicates', () => {
    const column = new ColumnAccumulator(ctx);
    for (const v of ['2', ' 4 ', '4', '', 'NA', '4', '5', '5', '7', '9']) column.add(v);
    const stats = column.stats();
    expect(stats).toMatchObject({ MIN: 2, MAX: 9, MEAN: 5, MISSING_VALS: 2, DUPLICATE_VALS: 3 });
    expect(stats.STD).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(stats.FORMATTED_VALS).toEqual(['2', '4', '4', '', '']);
    expect(stats.DICT).toEqual({ type: 'integer', count: 8, distinct: 5, distinct_exact: true, kinds: { integer: 8 } });
  });

  it('a few non-numbers leave a column numeric with an error; many make it text', () => {
    const mostly = new ColumnAccumulator(ctx);
    for (let i = 0; i < 95; i++) mostly.add(String(i));
    for (let i = 0; i < 5; i++) mostly.add('n/k');
    expect(mostly.stats().DICT.type).toBe('integer');
    expect(mostly.stats().ERRORS[0]).toBe('5 of 100 values are not numbers (first: "n/k"); MIN, MAX, MEAN and STD use the 95 numbers');
    const mixed = new ColumnAccumulator(ctx);
    for (const v of ['1', '2', 'A', 'B']) mixed.add(v);
    expect(mixed.stats()).toMatchObject({ MIN: null, MEAN: null, DICT: { type: 'text', kinds: { integer: 2, text: 2 } } });
  });

  it('types: floats, dates, times, booleans, typed spreadsheet values', () => {
    const typeOf = (values: unknown[]) => {
      const column = new ColumnAccumulator(ctx);
      for (const v of values) column.add(v as string);
      return column.stats().DICT.type;
    };
    expect(typeOf(['1.5', '-2', '3e4'])).toBe('float');
    expect(typeOf(['2024-01-31', '1999-12-01T10:00:00Z'])).toBe('date');
    expect(typeOf(['10/03/2004', '11.03.2004'])).toBe('date');
    expect(typeOf(['18.00.00', '7:30'])).toBe('time');
    expect(typeOf(['yes', 'No', 'TRUE'])).toBe('boolean');
    expect(typeOf([1, 2.5, null])).toBe('float');
    expect(typeOf([new Date(0), new Date(1)])).toBe('date');
    expect(typeOf([])).toBe('empty');
    expect(typeOf(['12345678901234567890'])).toBe('text'); // too long for a double: an identifier
  });

  it('distinct counts switch to an estimate past the cap, within a few percent', () => {
    const counter = new DistinctCounter(5_000);
    for (let i = 0; i < 150_000; i++) counter.add(`value-${i % 100_000}`);
    expect(counter.isExact).toBe(false);
    expect(Math.abs(counter.count() - 100_000) / 100_000).toBeLessThan(0.05);
    const numbers = new DistinctCounter(100);
    for (let i = 0; i < 5000; i++) numbers.add(i % 2500);
    expect(Math.abs(numbers.count() - 2500) / 2500).toBeLessThan(0.05);
  });

  it('a high-cardinality CSV reports estimated distinct values', async () => {
    const csv = `id\n${Array.from({ length: 50_000 }, (_, i) => i).join('\n')}\n`;
    const result = await extract(csv, 'ids.csv', 'metadata', { maxDistinctTracked: 1000 });
    const dict = result.FILE?.STATS['0'].DICT;
    expect(dict?.distinct_exact).toBe(false);
    expect(Math.abs((dict?.distinct ?? 0) - 50_000) / 50_000).toBeLessThan(0.05);
  });
});

describe('words', () => {
  it('splits on anything but letters and digits, keeps inner apostrophes and hyphens', () => {
    expect(words("Don’t stop-over: Zürich's 2nd—best, e-mail -x")).toEqual(["don't", 'stop-over', "zürich's", '2nd', 'best', 'e-mail', 'x']);
  });

  it('a top-k counter keeps the frequent words in bounded memory', () => {
    const counter = new TopWords(100);
    for (let i = 0; i < 100_000; i++) counter.add(i % 10 === 0 ? `frequent${i % 30}` : `rare${i}`);
    expect(counter.size).toBeLessThan(200);
    expect(counter.top(3).sort()).toEqual(['frequent0', 'frequent10', 'frequent20']);
  });
});

describe('abort signal', () => {
  it('aborting destroys the stream and rejects with the reason', async () => {
    const stream = new Readable({ read() {} }); // never ends by itself
    stream.push('a,b\n1,2\n');
    const controller = new AbortController();
    const pending = extractMetadata({ stream, fileName: 'slow.csv' }, { extractOption: 'metadata', signal: controller.signal });
    setImmediate(() => controller.abort(new Error('worker time-out')));
    await expect(pending).rejects.toThrow('worker time-out');
    expect(stream.destroyed).toBe(true);
  });
});
