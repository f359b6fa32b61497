import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractMetadata } from './extract';
import { dataset, parseCsvText, reference, streamOf, summary } from './spec-support.fixture';
import type { ExtractionResult, ExtractOption, PrivateColumns } from './types';

/** A linkage key as an organisation would hold it: 32 bytes, passed around in base64url. */
const KEY_TEXT = Buffer.alloc(32, 42).toString('base64url');
const KEY = new Uint8Array(Buffer.from(KEY_TEXT, 'base64url'));
const OTHER_KEY = new Uint8Array(32).fill(9);
/** The keyed hash computed here without the library: HMAC-SHA256 of the trimmed value, 32 hex characters. */
const hmac = (value: string, key: Uint8Array = KEY) => createHmac('sha256', key).update(value.trim()).digest('hex').slice(0, 32);

function extractPrivately(
  relative: string,
  choices: Omit<PrivateColumns, 'linkageKey'>,
  extractOption: Exclude<ExtractOption, 'minimal'> = 'samples',
  linkageKey: Uint8Array = KEY,
): Promise<ExtractionResult> {
  return extractMetadata(
    { stream: streamOf(readFileSync(dataset(relative))), fileName: path.basename(relative) },
    { extractOption, privateColumns: { ...choices, linkageKey } },
  );
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
    expect(meta.LINKAGE_KEY_ID).toMatch(/^[0-9a-f]{16}$/);

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
      extractPrivately('csv/gdp.csv', { hash: [1] }, 'samples', OTHER_KEY),
    ]);
    const populationHashes = new Set(population.column('Country Code').map((c) => hmac(c)));
    // Every country code of gdp.csv is in population.csv (the datasets' README): so are their hashes.
    for (const value of [...gdpMeta.FILE!.STATS['1'].FORMATTED_VALS, ...gdpMeta.FILE!.STATS['1'].SAMPLE_VALS]) expect(populationHashes.has(value)).toBe(true);
    expect(populationMeta.FILE!.STATS['1'].FORMATTED_VALS).toEqual(
      population
        .column('Country Code')
        .slice(0, 5)
        .map((c) => hmac(c)),
    );
    expect(otherKey.FILE!.STATS['1'].FORMATTED_VALS).toEqual(
      gdp
        .column('Country Code')
        .slice(0, 5)
        .map((c) => hmac(c, OTHER_KEY)),
    );
    // Each record names the key its hashes were made with; the id reveals nothing of the key.
    const keyId = createHash('sha256').update('data-catalogue linkage key id\n').update(KEY).digest('hex').slice(0, 16);
    expect(gdpMeta.LINKAGE_KEY_ID).toBe(keyId);
    expect(populationMeta.LINKAGE_KEY_ID).toBe(keyId);
    expect(otherKey.LINKAGE_KEY_ID).not.toBe(keyId);
    expect(otherKey.FILE!.STATS['1'].FORMATTED_VALS[0]).not.toBe(gdpMeta.FILE!.STATS['1'].FORMATTED_VALS[0]);
  });

  it('describes columns hashed in the browser as hashed without hashing them again, and hides values that are not hashes', async () => {
    const codes = gdp.column('Country Code');
    // What private indexing sends: the same CSV with the hashed column replaced by its hashes.
    const lines = readFileSync(dataset('csv/gdp.csv'), 'utf8').split(/\r\n/).filter(Boolean);
    const hashedCsv = [lines[0], ...lines.slice(1).map((line, i) => line.replace(`,${codes[i]},`, `,${hmac(codes[i])},`))].join('\n');
    const keyId = createHash('sha256').update('data-catalogue linkage key id\n').update(KEY).digest('hex').slice(0, 16);
    const browser = await extractMetadata(
      { stream: streamOf(hashedCsv), fileName: 'gdp.csv' },
      { extractOption: 'samples', privateColumns: { prehashed: ['Country Code'], linkageKeyId: keyId } },
    );
    const server = await extractPrivately('csv/gdp.csv', { hash: ['Country Code'] });
    expect(browser.FILE!.STATS['1']).toEqual(server.FILE!.STATS['1']);
    expect(browser.SHARE_FORMATS).toEqual(server.SHARE_FORMATS);
    expect([browser.ENCRYPTED_COLS, browser.LINKAGE_KEY_ID]).toEqual([['Country Code'], keyId]);

    const lying = await extractMetadata(
      { stream: streamOf('code,n\nAFG,1\nALB,2\n'), fileName: 'x.csv' },
      { extractOption: 'samples', privateColumns: { prehashed: ['code'], linkageKeyId: keyId } },
    );
    expectNoValueOf(lying, ['AFG', 'ALB']);
    expect(lying.ERRORS).toEqual(['Private columns: 2 values of "code" were not hashes; they are not shown']);
  });

  it('hashes fuzzy columns as CLKs: keyed Bloom filters of bigrams, close for a typo, listed in CLK_COLS', async () => {
    // The CLK computed here without the library: bigrams of the padded lower-case value, each
    // setting 20 of 1024 bits from HMAC-SHA256 under a key derived from the linkage key.
    const clkKey = createHmac('sha256', KEY).update('data-catalogue clk key').digest();
    const clk = (value: string) => {
      const bits = Buffer.alloc(128);
      const text = ` ${value.trim().toLowerCase().replace(/\s+/g, ' ')} `;
      for (let i = 0; i + 1 < text.length; i++) {
        const digest = createHmac('sha256', clkKey)
          .update(text.slice(i, i + 2))
          .digest();
        const [h1, h2] = [digest.readUInt32BE(0), digest.readUInt32BE(4) | 1];
        for (let k = 0; k < 20; k++) {
          const p = Number((BigInt(h1) + BigInt(k) * BigInt(h2 >>> 0)) % 2n ** 32n) % 1024;
          bits[p >> 3] |= 1 << (p & 7);
        }
      }
      return bits.toString('base64');
    };
    const meta = await extractPrivately('csv/gdp.csv', { hash: ['Country Name', 'Country Code'], fuzzy: ['country name'] });
    expect(meta.ENCRYPTED_COLS).toEqual(['Country Name', 'Country Code']);
    expect(meta.CLK_COLS).toEqual(['Country Name']);
    // Shown cut to maxCellChars, as any long cell.
    const head = (values: string[]) => values.map((v) => v.slice(0, 60));
    expect(head(meta.FILE!.STATS['0'].FORMATTED_VALS)).toEqual(head(gdp.column('Country Name').slice(0, 5).map(clk)));
    expect(meta.FILE!.STATS['1'].FORMATTED_VALS).toEqual(
      gdp
        .column('Country Code')
        .slice(0, 5)
        .map((c) => hmac(c)),
    );
    expectNoValueOf(meta, gdp.column('Country Name'));

    // The browser's CLKs arrive as they are (prehashed); anything else is not shown.
    const names = gdp.column('Country Name');
    const keyId = createHash('sha256').update('data-catalogue linkage key id\n').update(KEY).digest('hex').slice(0, 16);
    const csv = ['name,n', ...names.slice(0, 3).map((n, i) => `${clk(n)},${i}`), 'Albania,4'].join('\n');
    const browser = await extractMetadata(
      { stream: streamOf(csv), fileName: 'x.csv' },
      { extractOption: 'samples', privateColumns: { prehashed: ['name'], fuzzy: ['name'], linkageKeyId: keyId } },
    );
    expect([browser.CLK_COLS, browser.LINKAGE_KEY_ID]).toEqual([['name'], keyId]);
    expect(head(browser.FILE!.STATS['0'].FORMATTED_VALS.slice(0, 3))).toEqual(head(names.slice(0, 3).map(clk)));
    expect(browser.ERRORS).toEqual(['Private columns: 1 values of "name" were not hashes; they are not shown']);
  });

  it('masked numbers keep MIN, MAX, MEAN and STD only when listed in the summary list', async () => {
    const co2 = csvColumns('csv/co2-annmean-gl.csv');
    const meta = await extractPrivately(
      'csv/co2-annmean-gl.csv',
      {
        formats: [
          { column: 'Mean', format: 'mask' },
          { column: 'Uncertainty', format: 'mask' },
        ],
        summary: ['Mean'],
      },
      'metadata',
    );
    const means = co2.column('Mean').map(Number);
    const expected = summary(means);
    expect(meta.FILE!.STATS['1']).toMatchObject({ MIN: expected.min, MAX: expected.max, WORDSET: [] });
    expect(meta.FILE!.STATS['1'].MEAN).toBeCloseTo(expected.mean, 9);
    expect(meta.FILE!.STATS['1'].FORMATTED_VALS).toEqual(
      co2
        .column('Mean')
        .slice(0, 5)
        .map((v) => v.replace(/\d/g, '9')),
    );
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
