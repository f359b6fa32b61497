import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMaskShaped, maskCellValue, withoutCellValues } from './cell-masking';
import { extractMetadata } from './extract';
import { DATASETS, streamOf } from './spec-support.fixture';
import type { ExtractionResult, FileTable } from './types';
import { isMeaningful, words } from './words';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every data file of the shared datasets, as a path relative to the datasets folder. */
function datasetFiles(dir = DATASETS): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return datasetFiles(full);
    return entry.name === 'README.md' || entry.name === 'SHA256SUMS' ? [] : [path.relative(DATASETS, full)];
  });
}

const describeFile = (relative: string, extractOption: 'metadata' | 'samples', cellValues: 'masked' | 'raw') =>
  extractMetadata({ stream: streamOf(readFileSync(path.join(DATASETS, relative))), fileName: path.basename(relative) }, { extractOption, cellValues });

interface Table {
  table: FileTable;
  hashed: Set<string>;
  where: string;
}

/** Every table of a result: the main one, each sheet, each archive member's (recursively). */
function tablesOf(meta: ExtractionResult, where = meta.NAME): Table[] {
  const hashed = (formats: ExtractionResult['SHARE_FORMATS']) => new Set((formats ?? []).filter((f) => f.hash).map((f) => String(f.index)));
  const tables: Table[] = [];
  if (meta.FILE) tables.push({ table: meta.FILE, hashed: hashed(meta.SHARE_FORMATS), where: `${where} FILE` });
  for (const sheet of meta.SHEETS ?? []) tables.push({ table: sheet, hashed: hashed(sheet.SHARE_FORMATS), where: `${where} sheet ${sheet.NAME}` });
  for (const member of meta.MEMBERS ?? []) tables.push(...tablesOf(member, `${where} > ${member.NAME}`));
  return tables;
}

const TABULAR = new Set(['csv', 'xls', 'xlsx', 'hl7']);
const headerWordsOf = (meta: ExtractionResult) => new Set(tablesOf(meta).flatMap(({ table }) => table.HEADERS.flatMap(words).filter(isMeaningful)));

/**
 * What the extractor itself reveals of a file's cells when it is allowed to: the unmasked
 * profile's values, samples, words of cells and keywords that are not header words. The masked
 * META may show none of them (a value that is its own mask, e.g. "-", shows nothing).
 */
function cellValuesOf(raw: ExtractionResult): Set<string> {
  const found = new Set<string>();
  const visit = (meta: ExtractionResult) => {
    // Header names and their words are shown on purpose; a cell that repeats one reveals nothing more.
    const names = new Set([meta.NAME, ...tablesOf(meta).flatMap(({ table }) => table.HEADERS), ...headerWordsOf(meta)]);
    for (const { table } of tablesOf(meta)) {
      for (const stats of Object.values(table.STATS)) {
        for (const value of [...stats.FORMATTED_VALS, ...stats.SAMPLE_VALS, ...stats.WORDSET])
          if (value !== '' && !isMaskShaped(value) && !names.has(value)) found.add(value);
        for (const message of stats.ERRORS) for (const quoted of message.matchAll(/"([^"]+)"/g)) if (!isMaskShaped(quoted[1])) found.add(quoted[1]);
      }
    }
    if (TABULAR.has(meta.TYPE)) {
      const allowed = headerWordsOf(meta);
      for (const word of meta.KEYWORDS ?? []) if (!allowed.has(word) && !names.has(word)) found.add(word);
    }
    for (const member of meta.MEMBERS ?? []) visit(member);
  };
  visit(raw);
  return found;
}

/** Keys whose values are structure, not cells (names, types, formats, file-level facts). */
const STRUCTURE = new Set([
  'NAME',
  'HEADERS',
  'CONTENT_TYPE',
  'DATE',
  'TYPE',
  'EXTRACT_OPTION',
  'STATUS',
  'SAMPLES',
  'ENCRYPTED_COLS',
  'CSV',
  'HL7',
  'DOCUMENT',
  'DICT',
]);

/** Every string value of META outside the structural keys, with where it is. */
function shownStrings(value: unknown, where = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[where, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => shownStrings(item, `${where}[${i}]`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, child]) => (STRUCTURE.has(key) ? [] : shownStrings(child, `${where}.${key}`)));
  return [];
}

describe('maskCellValue', () => {
  it.each([
    ['Saint Paul, Minnesota', 'Xxxxx Xxxx, Xxxxxxxxx'],
    ['(555) 555-2004', '(999) 999-9999'],
    ['DOGCOW^CLARUS^M^III', 'XXXXXX^XXXXXX^X^XXX'],
    ['2004-03-10', '9999-99-99'],
    ['-12.75', '-99.99'],
    ['東京 Ünïcode', 'xx Xxxxxxx'],
    ['rain 🌧️\u0000', 'xxxx ***'],
  ])('%j → %j, and masking it again changes nothing', (value, mask) => {
    expect(maskCellValue(value)).toBe(mask);
    expect(maskCellValue(mask)).toBe(mask);
    expect(isMaskShaped(mask)).toBe(true);
  });
});

/**
 * The rule of docs/metadata-before-access.md on every file of the shared datasets: with the
 * default extract option (metadata) no raw cell value reaches META, while the headers, counts and
 * statistics that describe the data are still there.
 */
describe('META under extractOption metadata shows no cell of the data (every shared dataset)', () => {
  const files = datasetFiles();

  it('finds the datasets', () => expect(files.length).toBeGreaterThanOrEqual(30));

  it.each(files)('%s', async (relative) => {
    // The unmasked samples profile has everything metadata's has (same rows, words, statistics) plus real samples.
    const [shown, raw] = await Promise.all([describeFile(relative, 'metadata', 'masked'), describeFile(relative, 'samples', 'raw')]);

    // 1. Shape: value lists are masks (numeric samples too), columns carry no words, a table's keywords are its headers' words.
    for (const { table, hashed, where } of tablesOf(shown)) {
      for (const [index, stats] of Object.entries(table.STATS)) {
        if (hashed.has(index)) continue;
        const column = `${where} "${table.HEADERS[Number(index)]}"`;
        for (const value of [...stats.FORMATTED_VALS, ...stats.SAMPLE_VALS])
          expect({ column, value, mask: isMaskShaped(value) }).toEqual({ column, value, mask: true });
        expect({ column, WORDSET: stats.WORDSET }).toEqual({ column, WORDSET: [] });
        expect(typeof stats.DUPLICATE_VALS === 'number' || stats.DUPLICATE_VALS === undefined).toBe(true);
        expect(typeof stats.MISSING_VALS === 'number' || stats.MISSING_VALS === undefined).toBe(true);
      }
    }
    if (TABULAR.has(shown.TYPE)) {
      const allowed = headerWordsOf(shown);
      expect((shown.KEYWORDS ?? []).filter((word) => !allowed.has(word))).toEqual([]);
    }

    // 2. Leaks: no value the unmasked profile reveals appears anywhere in the shown META, nor quoted in a message.
    const cells = cellValuesOf(raw);
    const leaks = shownStrings(shown).filter(([, text]) => cells.has(text) || [...cells].some((cell) => text.includes(`"${cell}"`)));
    expect(leaks).toEqual([]);

    // 3. Still a description: the same headers, row counts and statistics as the unmasked profile.
    const rawTables = tablesOf(raw);
    tablesOf(shown).forEach(({ table }, i) => {
      expect(table.HEADERS).toEqual(rawTables[i].table.HEADERS);
      expect(table.TOTAL_ROWS).toBe(rawTables[i].table.TOTAL_ROWS);
      for (const [index, stats] of Object.entries(table.STATS)) {
        const raw = rawTables[i].table.STATS[index];
        expect([stats.MIN, stats.MAX, stats.MEAN, stats.DUPLICATE_VALS, stats.MISSING_VALS, stats.DICT]).toEqual([
          raw.MIN,
          raw.MAX,
          raw.MEAN,
          raw.DUPLICATE_VALS,
          raw.MISSING_VALS,
          raw.DICT,
        ]);
        expect(stats.FORMATTED_VALS).toEqual(raw.FORMATTED_VALS.map(maskCellValue));
      }
    });
    // A table file had cells to hide (the check above was not vacuous).
    if (TABULAR.has(shown.TYPE) && shown.STATUS !== 'failed') expect(cells.size).toBeGreaterThan(0);
  });

  it('an HL7 admission shows none of the patient: name, street, town, phone', async () => {
    const shown = JSON.stringify(await describeFile('hl7/001_ADT_A01.hl7', 'metadata', 'masked'));
    for (const part of ['DOGCOW', 'CLARUS', 'HOME STREET', 'GREENSBORO', '555-2004', 'NUCLEAR', 'NELDA', '8675309', 'PATID1234'])
      expect({ part, shown: shown.includes(part) }).toEqual({ part, shown: false });
    const other = JSON.stringify(await describeFile('hl7/005_MN_ADT_A01.hl7', 'metadata', 'masked'));
    for (const part of ['SMITH', 'SARAH', 'SADIE', 'STATE HIGHWAY', 'DEER CREEK', '11102779'])
      expect({ part, shown: other.toLowerCase().includes(part.toLowerCase()) }).toEqual({ part, shown: false });
  });

  it("with samples (the owner's knowing choice) the real values stay", async () => {
    const shown = await describeFile('hl7/001_ADT_A01.hl7', 'samples', 'masked');
    expect(JSON.stringify(shown)).toContain('DOGCOW');
    expect(withoutCellValues(shown)).toBe(shown);
  });

  it('masks META stored before this rule (read-time pass): idempotent, and tolerant of older shapes', async () => {
    const raw = await describeFile('csv/sp500-constituents.csv', 'metadata', 'raw');
    const once = withoutCellValues(raw);
    expect(withoutCellValues(once)).toEqual(once);
    expect(JSON.stringify(once)).not.toContain('Saint Paul');
    const old = { NAME: 'old.csv', FILE: { HEADERS: ['name'], STATS: { '0': { FORMATTED_VALS: ['Ada'], WORDSET: { ada: 3 } } } }, KEYWORDS: ['ada', 'name'] };
    expect(withoutCellValues(old)).toEqual({
      NAME: 'old.csv',
      FILE: { HEADERS: ['name'], STATS: { '0': { FORMATTED_VALS: ['Xxx'], WORDSET: {} } } },
      KEYWORDS: ['name'],
    });
    // A table's keywords are its headers' words, most frequent first.
    const castles = await describeFile('csv/riddler-castle-solutions.csv', 'metadata', 'masked');
    expect(castles.KEYWORDS).toEqual(['castle', 'choose', 'troop', 'deployment']);
    for (const odd of [null, 'text', 3, [1, 2], { FILE: 'not a table' }]) expect(() => withoutCellValues(odd)).not.toThrow();
  });
});
