// The Statistics tab's distributions (column-profile.ts): histograms and quartiles of numeric columns
// from their sketches, the most frequent values of categories, date histograms, and what of them a
// caller without download right sees (identifying-statistics.ts) and what the default option keeps.
import { extractMetadata } from './extract';
import { withoutCellValues } from './cell-masking';
import { HISTOGRAM_BINS, numericProfile, topValuesOf, VALUE_COUNTS_CAP } from './column-profile';
import { MIN_VALUES_FOR_STATISTICS, withoutIdentifyingStatistics } from './identifying-statistics';
import { SketchCollector } from './sketch';
import { streamOf } from './spec-support.fixture';
import type { ExtractionResult, ExtractOption } from './types';

const csv = ['age,city,visited,code,dob'];
const cities = ['Paris', 'Paris', 'Paris', 'Lyon', 'Lyon', 'Nice'];
for (let i = 0; i < 60; i++) {
  const day = String(1 + (i % 28)).padStart(2, '0');
  csv.push(`${20 + (i % 40)},${cities[i % cities.length]},2024-${i < 30 ? '01' : '03'}-${day},C${i},19${50 + (i % 40)}-01-${day}`);
}
const CSV = `${csv.join('\n')}\n`;

async function profile(option: ExtractOption, workers = 1, text = CSV): Promise<ExtractionResult> {
  const bytes = Buffer.from(text);
  return extractMetadata(
    { stream: streamOf(bytes, 97), fileName: 'people.csv', size: bytes.length },
    { extractOption: option, sketches: new SketchCollector(), cellValues: 'raw', threads: { workers, minBytes: 0, blockBytes: 256 } },
  );
}

describe('column profiles', () => {
  it('numeric columns get an equal-width histogram and quartiles of every value', async () => {
    const { FILE } = await profile('metadata');
    const age = FILE!.STATS['0'];
    expect(age.HISTOGRAM).toMatchObject({ kind: 'number', exact: true });
    expect(age.HISTOGRAM!.counts).toHaveLength(HISTOGRAM_BINS);
    expect(age.HISTOGRAM!.edges[0]).toBe(20);
    expect(age.HISTOGRAM!.edges.at(-1)).toBe(59);
    expect(age.HISTOGRAM!.counts.reduce((a, b) => a + b, 0)).toBe(60);
    // 20-39 twice, 40-59 once: R type 7 quartiles of the 60 values.
    expect(age.QUARTILES).toEqual({ q1: 27, median: 34.5, q3: 44.25, exact: true });
  });

  it('integers of a narrow range get one bin per integer', () => {
    const profiled = numericProfile([1, 1, 2, 3, 3, 3], 6, 1, 3, true)!;
    expect(profiled.HISTOGRAM).toEqual({ kind: 'number', edges: [0.5, 1.5, 2.5, 3.5], counts: [2, 1, 3], exact: true });
  });

  it('scales a sample to the column when the sketch kept only part of it', () => {
    const profiled = numericProfile([0, 10], 200, 0, 10, false)!;
    expect(profiled.HISTOGRAM.exact).toBe(false);
    expect(profiled.HISTOGRAM.counts.reduce((a, b) => a + b, 0)).toBe(200);
  });

  it('categories get their most frequent values, dates a histogram; columns of too many values none', async () => {
    const { FILE } = await profile('samples');
    expect(FILE!.STATS['1'].TOP_VALUES).toEqual([
      { value: 'Paris', count: 30 },
      { value: 'Lyon', count: 20 },
      { value: 'Nice', count: 10 },
    ]);
    const visited = FILE!.STATS['2'];
    expect(visited.HISTOGRAM).toMatchObject({ kind: 'date', exact: true });
    expect(visited.HISTOGRAM!.edges[0]).toBe(Date.parse('2024-01-01'));
    expect(visited.HISTOGRAM!.edges.at(-1)).toBe(Date.parse('2024-03-28'));
    expect(visited.HISTOGRAM!.counts.reduce((a, b) => a + b, 0)).toBe(60);
    expect(FILE!.STATS['0'].TOP_VALUES).toBeUndefined();
    const many = ['id', ...Array.from({ length: VALUE_COUNTS_CAP + 1 }, (_, i) => `K${i}`)].join('\n');
    expect((await profile('samples', 1, many)).FILE!.STATS['0'].TOP_VALUES).toBeUndefined();
  });

  it('the same profile in one thread and in worker threads', async () => {
    const one = await profile('metadata', 1);
    const two = await profile('metadata', 2);
    expect(two.FILE!.STATS).toEqual(one.FILE!.STATS);
    expect(two.FILE!.STATS['1'].TOP_VALUES).toHaveLength(3);
  });

  it('orders equal counts by value', () => {
    expect(
      topValuesOf([
        ['b', 2],
        ['a', 2],
        ['c', 5],
      ]).map((t) => t.value),
    ).toEqual(['c', 'a', 'b']);
  });
});

describe('column profiles before access', () => {
  it('the default option shows no most frequent value (they are cells), and keeps histograms', async () => {
    const shown = withoutCellValues(await profile('metadata'));
    expect(Object.values(shown.FILE!.STATS).some((stats) => 'TOP_VALUES' in stats)).toBe(false);
    expect(shown.FILE!.STATS['0'].HISTOGRAM).toBeDefined();
  });

  it('without download right: no histogram or quartiles where MIN and MAX are withheld, no rare or identifying top values', async () => {
    const raw = await profile('metadata');
    const shown = withoutIdentifyingStatistics(withoutCellValues(raw));
    // age: 40 distinct of 60, not identifying: everything stays.
    expect(shown.FILE!.STATS['0'].HISTOGRAM).toEqual(raw.FILE!.STATS['0'].HISTOGRAM);
    expect(shown.FILE!.STATS['0'].QUARTILES).toEqual(raw.FILE!.STATS['0'].QUARTILES);
    // dob: its header names a date of birth.
    expect(raw.FILE!.STATS['4'].HISTOGRAM).toBeDefined();
    expect(shown.FILE!.STATS['4'].HISTOGRAM).toBeUndefined();

    const samples = await profile('samples');
    const seen = withoutIdentifyingStatistics(samples);
    // city: values of fewer than 10 rows are left out; code: near-unique, none; dob: identifying, none.
    expect(seen.FILE!.STATS['1'].TOP_VALUES).toEqual(
      [
        { value: 'Paris', count: 30 },
        { value: 'Lyon', count: 20 },
        { value: 'Nice', count: 10 },
      ].filter((t) => t.count >= MIN_VALUES_FOR_STATISTICS),
    );
    expect(samples.FILE!.STATS['3'].TOP_VALUES).toBeDefined();
    expect(seen.FILE!.STATS['3'].TOP_VALUES).toBeUndefined();
    expect(samples.FILE!.STATS['4'].TOP_VALUES).toBeDefined();
    expect(seen.FILE!.STATS['4'].TOP_VALUES).toBeUndefined();
  });

  it('few values: no histogram, quartiles or top values before access', async () => {
    const few = `${['n,kind', ...Array.from({ length: 6 }, (_, i) => `${i},a`)].join('\n')}\n`;
    const raw = await profile('samples', 1, few);
    const seen = withoutIdentifyingStatistics({ ...raw, EXTRACT_OPTION: 'metadata' });
    expect(raw.FILE!.STATS['0'].HISTOGRAM).toBeDefined();
    expect(seen.FILE!.STATS['0']).not.toHaveProperty('HISTOGRAM');
    expect(seen.FILE!.STATS['0']).not.toHaveProperty('QUARTILES');
    expect(seen.FILE!.STATS['1']).not.toHaveProperty('TOP_VALUES');
  });
});
