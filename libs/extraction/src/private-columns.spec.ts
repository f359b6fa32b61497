import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractMetadata } from './extract';
import { dataset, parseCsvText, reference, streamOf, summary } from './spec-support';
import type { ExtractionResult, ExtractOption, PrivateColumns } from './types';

const KEY = 'product-hashing-key-for-tests';
/** The keyed hash computed here without the library: HMAC-SHA256 of the trimmed value, 32 hex characters. */
const hmac = (value: string, key = KEY) => createHmac('sha256', key).update(value.trim()).digest('hex').slice(0, 32);

function extractPrivately(relative: string, choices: Omit<PrivateColumns, 'hashKey'>, extractOption: Exclude<ExtractOption, 'minimal'> = 'samples', hashKey = KEY): Promise<ExtractionResult> {
  return extractMetadata({ stream: streamOf(readFileSync(dataset(relative))), fileName: path.basename(relative) }, { extractOption, privateColumns: { ...choices, hashKey } });
}

function csvColumns(relative: string): { header: string[]; column: (name: string) => string[] } {
  const [header, ...rows] = parseCsvText(readFileSync(dataset(relative), 'utf8'), ',');
  return { header, column: (name) => rows.map((row) => row[header.indexOf(name)]) };
}

function stringsOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(stringsOf);
  return node && typeof node === 'object' ? Object.values(node).flatMap(stringsOf) : [];
}

/** No string of META is a raw value of these, nor (for values of 5 characters or more) holds one. */
function expectNoValueOf(meta: ExtractionResult, values: string[]): void {
  const strings = stringsOf(meta);
  const exact = new Set(strings);
  const joined = strings.join('\u0000');
  for (const value of new Set(values.map((v) => v.trim()).filter((v) => v !== ''))) {
    expect(exact.has(value)).toBe(false);
    if (value.length >= 5) expect(joined.includes(value) ? value : null).toBeNull();
  }
}

describe('private columns', () => {
  const gdp = csvColumns('csv/gdp.csv');

  it('hashes, masks and excludes CSV columns: no raw value of them reaches META', async () => {
    const meta = await extractPrivately('csv/gdp.csv', {
      hash: ['country code'],
      formats: [
        { column: 'Country Name', format: 'mask' },
        { column: 2, format: 'exclude' },
      ],
    });
    expect(meta.STATUS).toBe('complete');
    expect(meta.FILE?.HEADERS).toEqual(['Country Name', 'Country Code', 'Value']);
    expect(Object.keys(meta.FILE?.STATS ?? {})).toEqual(['0', '1', '2']);
    expect(meta.SHARE_FORMATS).toEqual([
      { index: 0, format: 'mask', hash: false },
      { index: 1, format: 'plain', hash: true },
      { index: 2, format: 'plain', hash: false },
    ]);
    expect(meta.ENCRYPTED_COLS).toEqual(['Country Code']);

    const codes = gdp.column('Country Code');
    const hashed = meta.FILE!.STATS['1'];
    expect(hashed.FORMATTED_VALS).toEqual(codes.slice(0, 5).map((c) => hmac(c)));
    const allHashes = new Set(codes.map((c) => hmac(c)));
    expect(hashed.SAMPLE_VALS).toHaveLength(10);
    for (const sample of hashed.SAMPLE_VALS) expect(allHashes.has(sample)).toBe(true);
    expect(hashed.DICT).toMatchObject({ type: 'text', count: codes.length, distinct: reference(codes).distinct });
    expect(hashed.DUPLICATE_VALS).toBe(codes.length - reference(codes).distinct);
    expect(hashed).toMatchObject({ MIN: null, MAX: null, WORDSET: [], ERRORS: [] });

    const names = gdp.column('Country Name');
    const masked = meta.FILE!.STATS['0'];
    expect(masked.FORMATTED_VALS).toEqual(['Xxxxxxxxxxx', 'Xxxxxxxxxxx', 'Xxxxxxxxxxx', 'Xxxxxxxxxxx', 'Xxxxxxxxxxx']);
    for (const sample of masked.SAMPLE_VALS) expect(sample).toMatch(/^[Xx9\s\W]+$/);
    expect(masked).toMatchObject({ WORDSET: [], MISSING_VALS: 0, DICT: { type: 'text', count: names.length, distinct: reference(names).distinct } });

    // The plain column is described as usual; the excluded one is nowhere.
    const values = gdp.column('Value').map(Number);
    expect(meta.FILE!.STATS['2'].MAX).toBe(summary(values).max);
    expectNoValueOf(meta, [...codes, ...names]);
    expect(meta.KEYWORDS).not.toContain('afghanistan');
    expect(JSON.stringify(meta)).not.toContain('"Year"');
  });

  it('gives equal values of two files the same hash under one key, and other hashes under another key', async () => {
    const population = csvColumns('csv/population.csv');
    const [gdpMeta, populationMeta, otherKey] = await Promise.all([
      extractPrivately('csv/gdp.csv', { hash: [1] }),
      extractPrivately('csv/population.csv', { hash: ['Country Code'] }),
      extractPrivately('csv/gdp.csv', { hash: [1] }, 'samples', 'another-product-key'),
    ]);
    const populationHashes = new Set(population.column('Country Code').map((c) => hmac(c)));
    // Every country code of gdp.csv is in population.csv (the datasets' README): so are their hashes.
    for (const value of [...gdpMeta.FILE!.STATS['1'].FORMATTED_VALS, ...gdpMeta.FILE!.STATS['1'].SAMPLE_VALS]) expect(populationHashes.has(value)).toBe(true);
    expect(populationMeta.FILE!.STATS['1'].FORMATTED_VALS).toEqual(population.column('Country Code').slice(0, 5).map((c) => hmac(c)));
    expect(otherKey.FILE!.STATS['1'].FORMATTED_VALS).toEqual(gdp.column('Country Code').slice(0, 5).map((c) => hmac(c, 'another-product-key')));
    expect(otherKey.FILE!.STATS['1'].FORMATTED_VALS[0]).not.toBe(gdpMeta.FILE!.STATS['1'].FORMATTED_VALS[0]);
  });

  it('masked numbers keep MIN, MAX, MEAN and STD only when listed in the summary list', async () => {
    const co2 = csvColumns('csv/co2-annmean-gl.csv');
    const meta = await extractPrivately('csv/co2-annmean-gl.csv', { formats: [{ column: 'Mean', format: 'mask' }, { column: 'Uncertainty', format: 'mask' }], summary: ['Mean'] }, 'metadata');
    const means = co2.column('Mean').map(Number);
    const expected = summary(means);
    expect(meta.FILE!.STATS['1']).toMatchObject({ MIN: expected.min, MAX: expected.max, WORDSET: [] });
    expect(meta.FILE!.STATS['1'].MEAN).toBeCloseTo(expected.mean, 9);
    expect(meta.FILE!.STATS['1'].FORMATTED_VALS).toEqual(co2.column('Mean').slice(0, 5).map((v) => v.replace(/\d/g, '9')));
    expect(meta.FILE!.STATS['2']).toMatchObject({ MIN: null, MAX: null, MEAN: null, STD: null, DICT: { type: 'float', count: 47 } });
    expectNoValueOf(meta, co2.column('Uncertainty'));
    expect(meta.SHARE_FORMATS).toEqual([
      { index: 0, format: 'plain', hash: false },
      { index: 1, format: 'mask', hash: false },
      { index: 2, format: 'mask', hash: false },
    ]);
    expect(meta.ENCRYPTED_COLS).toEqual([]);
  });

  it('applies to every sheet of a workbook, each with its own SHARE_FORMATS', async () => {
    const meta = await extractPrivately('excel/off-year-turnout-2023.xlsx', { hash: ['NAME'] });
    const states = meta.SHEETS!.filter((s) => s.HEADERS.includes('NAME'));
    expect(states.length).toBeGreaterThanOrEqual(5);
    for (const sheet of states) {
      const index = sheet.HEADERS.indexOf('NAME');
      expect(sheet.SHARE_FORMATS?.[index]).toEqual({ index, format: 'plain', hash: true });
      for (const value of sheet.STATS[String(index)].FORMATTED_VALS) expect(value).toMatch(/^([0-9a-f]{32}|)$/);
    }
    expect(meta.ENCRYPTED_COLS).toEqual(['NAME']);
    expect(meta.SHARE_FORMATS).toEqual(expect.arrayContaining([{ index: expect.any(Number), format: 'plain', hash: true }]));
    const plain = await extractPrivately('excel/off-year-turnout-2023.xlsx', {}, 'samples');
    const counties = states.flatMap((sheet) => {
      const same = plain.SHEETS!.find((s) => s.NAME === sheet.NAME)!;
      return [...same.STATS[String(same.HEADERS.indexOf('NAME'))].FORMATTED_VALS, ...same.STATS[String(same.HEADERS.indexOf('NAME'))].SAMPLE_VALS];
    });
    expect(counties.length).toBeGreaterThan(20);
    expectNoValueOf(meta, counties);
  });

  it('picks HL7 fields by name', async () => {
    const meta = await extractPrivately('hl7/005_MN_ADT_A01.hl7', { hash: ['PID-5'], formats: [{ column: 'PID-11', format: 'exclude' }] });
    expect(meta.ENCRYPTED_COLS).toEqual(['PID-5']);
    const index = meta.FILE!.HEADERS.indexOf('PID-5');
    expect(meta.FILE!.STATS[String(index)].FORMATTED_VALS).toContain(hmac('SMITH^BB SARAH'));
    expect(meta.FILE!.HEADERS).not.toContain('PID-11');
    expect(JSON.stringify(meta)).not.toMatch(/SARAH|OTTER TAIL/);
  });

  it('says which choices picked no column; without choices META is as before', async () => {
    const meta = await extractPrivately('csv/co2-annmean-gl.csv', { hash: ['Station', 7], formats: [{ column: 'Year', format: 'mask' }] });
    expect(meta.STATUS).toBe('complete');
    expect(meta.ERRORS).toEqual(['Private columns: this file has no column named "Station"', 'Private columns: this file has no column at position 7']);
    const plain = await extractPrivately('csv/co2-annmean-gl.csv', { formats: [{ column: 'Year', format: 'plain' }] });
    expect(plain).not.toHaveProperty('SHARE_FORMATS');
    expect(plain).not.toHaveProperty('ENCRYPTED_COLS');
    expect(plain.FILE!.STATS['0'].MIN).toBe(1979);
  });
});
