import { readFileSync } from 'node:fs';
import { detectDelimiter, scanRecords } from './csv';
import { dataset, expectClose, extractDataset, isMissing, parseCsvText, reference, summary } from './spec-support.fixture';
import type { ExtractionResult } from './types';

interface CsvCase {
  file: string;
  delimiter: ',' | ';' | '\t';
  encoding: 'utf-8' | 'latin1';
  rows: number;
  columns: number;
  decimalComma?: boolean;
}

// Row and column counts are the datasets README's (Python's csv module); everything else is
// recomputed below from the raw bytes with the tests' own reader.
const CASES: CsvCase[] = [
  { file: 'csv/gdp.csv', delimiter: ',', encoding: 'utf-8', rows: 13979, columns: 4 },
  { file: 'csv/population.csv', delimiter: ',', encoding: 'utf-8', rows: 17195, columns: 4 },
  { file: 'csv/co2-annmean-gl.csv', delimiter: ',', encoding: 'utf-8', rows: 47, columns: 3 },
  { file: 'csv/co2-annmean-mlo.csv', delimiter: ',', encoding: 'utf-8', rows: 67, columns: 3 },
  { file: 'csv/sp500-constituents.csv', delimiter: ',', encoding: 'utf-8', rows: 503, columns: 8 },
  { file: 'csv/bank-marketing.csv', delimiter: ';', encoding: 'utf-8', rows: 4521, columns: 17, decimalComma: true },
  { file: 'csv/AirQualityUCI.csv', delimiter: ';', encoding: 'utf-8', rows: 9357, columns: 17, decimalComma: true },
  { file: 'csv/unemployment.tsv', delimiter: '\t', encoding: 'utf-8', rows: 3218, columns: 2 },
  { file: 'csv/riddler-castle-solutions.csv', delimiter: ',', encoding: 'utf-8', rows: 1349, columns: 11 },
  { file: 'csv/btw25-bw-kreise.csv', delimiter: ',', encoding: 'latin1', rows: 39, columns: 54 },
];

function referenceTable(c: CsvCase): { headers: string[]; rows: string[][] } {
  const bytes = readFileSync(dataset(c.file));
  const text = new TextDecoder(c.encoding === 'latin1' ? 'windows-1252' : 'utf-8').decode(bytes);
  const [header, ...rows] = parseCsvText(text, c.delimiter);
  return { headers: header.map((h, i) => (h.trim() === '' ? `Column ${i + 1}` : h.trim())), rows };
}

describe.each(CASES)('CSV $file', (c) => {
  let result: ExtractionResult;
  let expected: { headers: string[]; rows: string[][] };

  beforeAll(async () => {
    result = await extractDataset(c.file);
    expected = referenceTable(c);
  });

  it('detects the delimiter, reads the header and counts the data rows', () => {
    expect(result.STATUS).toBe('complete');
    expect(result.TYPE).toBe('csv');
    expect(result.CSV?.DELIMITER).toBe(c.delimiter);
    expect(result.CSV?.HAS_HEADER).toBe(true);
    expect(result.FILE?.HEADERS).toEqual(expected.headers);
    expect(result.FILE?.HEADERS).toHaveLength(c.columns);
    expect(result.FILE?.TOTAL_ROWS).toBe(c.rows);
    expect(expected.rows).toHaveLength(c.rows);
    expect(result.SIZE).toBe(readFileSync(dataset(c.file)).length);
  });

  it('computes every column’s statistics as an independent reading does', () => {
    const stats = result.FILE?.STATS ?? {};
    expected.headers.forEach((_, i) => {
      const column = stats[String(i)];
      const ref = reference(
        expected.rows.map((row) => row[i]),
        c.decimalComma,
      );
      expect({ i, missing: column.MISSING_VALS, count: column.DICT.count }).toEqual({ i, missing: ref.missing, count: ref.count });
      expect({ i, duplicates: column.DUPLICATE_VALS }).toEqual({ i, duplicates: ref.count - ref.distinct });
      const numeric = ref.count > 0 && ref.numbers.length >= ref.count * 0.9;
      if (numeric) {
        const s = summary(ref.numbers);
        expectClose(column.MIN, s.min);
        expectClose(column.MAX, s.max);
        expectClose(column.MEAN, s.mean);
        expectClose(column.STD, s.std, 1e-7);
        expect(['integer', 'float']).toContain(column.DICT.type);
      } else {
        expect({ i, min: column.MIN, mean: column.MEAN }).toEqual({ i, min: null, mean: null });
      }
      const first = expected.rows.slice(0, 5).map((row) => (isMissing(row[i] ?? '') ? '' : (row[i] ?? '').trim()));
      column.FORMATTED_VALS.forEach((shown, r) => expect(first[r].startsWith(shown.replace(/…$/, ''))).toBe(true));
    });
  });

  it('keeps only real words of text columns in WORDSET and KEYWORDS', () => {
    const stats = result.FILE?.STATS ?? {};
    const all = expected.rows.flat().join(' ').toLowerCase().replace(/’/g, "'") + ' ' + expected.headers.join(' ').toLowerCase();
    for (const column of Object.values(stats)) for (const word of column.WORDSET) expect(all).toContain(word);
    for (const word of result.KEYWORDS ?? []) expect(all).toContain(word);
  });
});

describe('CSV specifics of the real files', () => {
  it('bank-marketing: quoted categorical values become words, numbers stay numbers', async () => {
    const result = await extractDataset('csv/bank-marketing.csv');
    const job = result.FILE?.STATS[String(result.FILE.HEADERS.indexOf('job'))];
    expect(job?.DICT.type).toBe('text');
    expect(job?.DICT.distinct).toBe(12);
    expect(job?.WORDSET).toEqual(expect.arrayContaining(['management', 'blue-collar', 'technician']));
    expect(result.FILE?.STATS[String(result.FILE.HEADERS.indexOf('y'))].DICT.type).toBe('boolean');
  });

  it('AirQualityUCI: decimal commas are numbers, dates and times are typed, blank records are not rows', async () => {
    const result = await extractDataset('csv/AirQualityUCI.csv');
    const headers = result.FILE?.HEADERS ?? [];
    expect(headers.slice(-2)).toEqual(['Column 16', 'Column 17']);
    const stat = (name: string) => result.FILE?.STATS[String(headers.indexOf(name))];
    expect(stat('Date')?.DICT.type).toBe('date');
    expect(stat('Time')?.DICT.type).toBe('time');
    expect(stat('CO(GT)')?.DICT.type).toBe('float');
    expect(stat('CO(GT)')?.MIN).toBe(-200); // the dataset's sentinel for missing readings
    expect(stat('Column 16')?.DICT.type).toBe('empty');
    expect(stat('Column 16')?.MISSING_VALS).toBe(9357);
  });

  it('riddler castles: quoted line breaks stay inside their record', async () => {
    const result = await extractDataset('csv/riddler-castle-solutions.csv');
    const why = result.FILE?.STATS['10'];
    expect(result.FILE?.HEADERS[10]).toBe('Why did you choose your troop deployment?');
    // 81 empty cells (datasets README) plus answers such as "?" or "None", which also count as missing.
    const cells = referenceTable(CASES[8]).rows.map((row) => row[10]);
    const naTokens = cells.filter((cell) => cell.trim() !== '' && isMissing(cell)).length;
    expect(cells.filter((cell) => cell.trim() === '')).toHaveLength(81);
    expect(why?.MISSING_VALS).toBe(81 + naTokens);
    expect(why?.DICT.type).toBe('text');
    expect(result.ERRORS).toEqual([]);
  });

  it('btw25: Latin-1 bytes are read as Windows-1252 and the result says so', async () => {
    const result = await extractDataset('csv/btw25-bw-kreise.csv');
    expect(result.CSV?.ENCODING).toBe('windows-1252');
    expect(result.FILE?.HEADERS).toContain('Wahlberechtigte_nach_§25_Abs.2_BWO');
    expect(result.ERRORS.some((e) => e.startsWith('Invalid UTF-8 at byte'))).toBe(true);
    const empty = Object.values(result.FILE?.STATS ?? {}).filter((s) => s.DICT.type === 'empty');
    expect(empty).toHaveLength(6);
  });

  it('sp500: quoted commas do not split fields; ISO dates are typed', async () => {
    const result = await extractDataset('csv/sp500-constituents.csv');
    const headers = result.FILE?.HEADERS ?? [];
    expect(result.FILE?.STATS[String(headers.indexOf('Date added'))].DICT.type).toBe('date');
    const hq = result.FILE?.STATS[String(headers.indexOf('Headquarters Location'))];
    expect(hq?.FORMATTED_VALS[0]).toBe('Saint Paul, Minnesota');
  });
});

describe('delimiter detection and record scanning', () => {
  it('picks the delimiter with the most consistent count over the first lines', () => {
    expect(detectDelimiter('a;b;c\n1;2,5;3\n4;5,5;6\n')).toBe(';');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('"x, y",b\n"1,2",3\n')).toBe(',');
    expect(detectDelimiter('single\ncolumn\n', 'list.tsv')).toBe('\t');
  });

  it('cuts only at line ends outside quotes', () => {
    const text = 'a,"b\nc",d\ne,f,g\nh,"unfinished\n';
    const { end } = scanRecords(text, ',', '\n');
    expect(text.slice(0, end)).toBe('a,"b\nc",d\ne,f,g\n');
    expect(scanRecords('x,5" screen,y\nz\n', ',', '\n').end).toBe(16); // a quote inside a field is literal
    expect(scanRecords('a,"he said ""hi""",b\nc', ',', '\n').end).toBe(21);
  });
});
