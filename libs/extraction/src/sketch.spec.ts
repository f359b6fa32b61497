import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractMetadata } from './extract';
import { keyedHash } from './private-columns';
import { quantilesOf, SketchCollector, SKETCH_K, valueHash } from './sketch';
import { DATASETS } from './spec-support.fixture';

const file = (name: string) => path.join(DATASETS, name);

async function sketchOf(name: string, options: { privateColumns?: Parameters<typeof extractMetadata>[1]['privateColumns'] } = {}) {
  const sketches = new SketchCollector();
  const meta = await extractMetadata(
    { stream: createReadStream(file(name)), fileName: path.basename(name) },
    { extractOption: 'metadata', sketches, ...options },
  );
  return { meta, tables: sketches.tables };
}

describe('column sketches gathered during extraction', () => {
  it('sketches every shown column of a real CSV: exact value sets while small, exact quantiles, words', async () => {
    const { meta, tables } = await sketchOf('csv/co2-annmean-mlo.csv');
    expect(tables).toHaveLength(1);
    const [table] = tables;
    expect(table).toMatchObject({ name: 'co2-annmean-mlo.csv', totalRows: meta.FILE?.TOTAL_ROWS });
    expect(table.columns.map((c) => c.header)).toEqual(['Year', 'Mean', 'Uncertainty']);
    const year = table.columns[0];
    expect(year).toMatchObject({ privacy: 'plain', type: 'integer', count: 67, distinct: 67 });
    // 67 distinct years: the sketch holds all of them.
    const years = Array.from({ length: 67 }, (_, i) => String(1959 + i));
    expect(year.minhash).toEqual(years.map(valueHash).sort((a, b) => a - b));
    expect(year.numeric).toMatchObject({ min: 1959, max: 2025, exact: true, sampled: 67 });
    expect(year.numeric?.quantiles).toEqual(quantilesOf(years.map(Number)));
    expect(year.numeric?.quantiles[50]).toBe(1992);
  });

  it('keeps the k smallest hashes of a column with more distinct values than k', async () => {
    const { tables } = await sketchOf('csv/gdp.csv');
    const value = tables[0].columns.find((c) => c.header === 'Value')!;
    expect(value.minhash).toHaveLength(SKETCH_K);
    expect([...value.minhash].sort((a, b) => a - b)).toEqual(value.minhash);
    const lines = readFileSync(file('csv/gdp.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
    const all = [...new Set(lines.map((line) => valueHash(String(Number(line.split(',').at(-1))))))].sort((a, b) => a - b);
    expect(value.minhash).toEqual(all.slice(0, SKETCH_K));
  });

  it('sketches hashed columns from keyed hashes only and masked columns not at all', async () => {
    const linkageKey = new Uint8Array(32).fill(6);
    const { tables } = await sketchOf('csv/co2-annmean-gl.csv', {
      privateColumns: {
        hash: ['Year'],
        formats: [
          { column: 'Mean', format: 'mask' },
          { column: 'Uncertainty', format: 'exclude' },
        ],
        linkageKey,
      },
    });
    const [year, mean] = tables[0].columns;
    expect(tables[0].columns).toHaveLength(2);
    expect(year).toMatchObject({ header: 'Year', privacy: 'hashed', numeric: null, words: [] });
    expect(year.minhash).toContain(valueHash(keyedHash(linkageKey, '1979')));
    expect(year.minhash).not.toContain(valueHash('1979'));
    expect(mean).toMatchObject({ header: 'Mean', privacy: 'masked', minhash: [], numeric: null, words: [] });
  });

  it('names each sheet of a workbook', async () => {
    const { tables } = await sketchOf('excel/BreastTissue.xls');
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['Description', 'Data']));
  });
});
