import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { detectDelimiter, isCsv, PREVIEW_LINES, previewCsv } from './csv-preview';

/** The shared datasets, found above this file (beside the repository, or above a worktree). */
function datasetsDir(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  throw new Error('shared/datasets not found above the repository');
}
const bytesOf = (relative: string) => readFileSync(path.join(datasetsDir(), relative));
/** What a browser's File.slice(0, 64 KiB).text() gives for a real file. */
const headOf = (relative: string) => new TextDecoder().decode(bytesOf(relative).subarray(0, 64 * 1024));
const fileOf = (relative: string) => new File([bytesOf(relative)], path.basename(relative), { type: relative.endsWith('.csv') ? 'text/csv' : '' });

describe('CSV preview delimiter (spec sections 5 and 9: comma, semicolon or tab, most consistent over the first 7 lines)', () => {
  it.each([
    ['csv/co2-annmean-mlo.csv', ','],
    ['csv/gdp.csv', ','], // CRLF line ends
    ['csv/sp500-constituents.csv', ','], // commas inside quoted cells
    ['csv/riddler-castle-solutions.csv', ','], // quoted cells spanning lines
    ['csv/btw25-bw-kreise.csv', ','], // Latin-1 bytes
    ['csv/bank-marketing.csv', ';'], // every header and text cell quoted
    ['csv/AirQualityUCI.csv', ';'], // decimal commas on the data rows, but the same 16 semicolons on every line
    ['csv/unemployment.tsv', '\t'],
  ])('%s → %j', (file, delimiter) => {
    expect(detectDelimiter(headOf(file))).toBe(delimiter);
  });

  it('looks at the first 7 lines only', () => {
    const head = Array.from({ length: PREVIEW_LINES }, (_, i) => `${i},b,c`);
    const tail = Array.from({ length: 20 }, (_, i) => `${i};b;c;d`);
    expect(detectDelimiter([...head, ...tail].join('\n'))).toBe(',');
    expect(detectDelimiter([...tail.slice(0, 4), ...head].join('\n'))).toBe(';');
  });

  it('prefers the delimiter whose count agrees on the most lines, then the larger count; none found means comma', () => {
    // Commas appear on every line but in varying numbers; tabs are the same on every line.
    expect(detectDelimiter('a\tb,c\n1\t2,3,4\n5\t6\n7\t8,,,')).toBe('\t');
    // Both agree on every line: the larger count wins.
    expect(detectDelimiter('a;b;c,d\n1;2;3,4\n5;6;7,8')).toBe(';');
    // Delimiters inside quotes do not count.
    expect(detectDelimiter('"a;b";c\n"1;2";3\n"x;y";z')).toBe(';');
    expect(detectDelimiter('"a;b;c",d\n"1;2;3",4')).toBe(',');
    expect(detectDelimiter('one column\nonly\nhere')).toBe(',');
    expect(detectDelimiter('')).toBe(',');
  });
});

describe('previewCsv on real files', () => {
  it('shows the header row and 6 rows of a semicolon file, quotes removed', async () => {
    const preview = await previewCsv(fileOf('csv/bank-marketing.csv'));
    const lines = bytesOf('csv/bank-marketing.csv').toString('utf8').split('\n');
    expect(preview.delimiter).toBe(';');
    expect(preview.rows).toHaveLength(PREVIEW_LINES);
    expect(preview.rows[0]).toEqual(lines[0].split(';').map((cell) => cell.replace(/^"|"$/g, '')));
    expect(preview.rows[1]).toEqual(lines[1].split(';').map((cell) => cell.replace(/^"|"$/g, '')));
  });

  it('reads a large file from its head only and keeps quoted commas inside their cells', async () => {
    const sp500 = await previewCsv(fileOf('csv/sp500-constituents.csv'));
    expect(sp500.rows[0]).toEqual(['Symbol', 'Security', 'GICS Sector', 'GICS Sub-Industry', 'Headquarters Location', 'Date added', 'CIK', 'Founded']);
    expect(sp500.rows[1]).toEqual(['MMM', '3M', 'Industrials', 'Industrial Conglomerates', 'Saint Paul, Minnesota', '1957-03-04', '66740', '1902']);
    const gdp = await previewCsv(fileOf('csv/gdp.csv'));
    expect(gdp.rows).toHaveLength(PREVIEW_LINES);
    for (const row of gdp.rows) expect(row).toHaveLength(4);
  });

  it('offers a preview for .csv names or the text/csv type only', () => {
    expect(isCsv(new File(['a'], 'data.CSV'))).toBe(true);
    expect(isCsv(new File(['a'], 'export', { type: 'text/csv' }))).toBe(true);
    expect(isCsv(new File(['a'], 'unemployment.tsv', { type: 'text/tab-separated-values' }))).toBe(false);
    expect(isCsv(new File(['a'], 'book.xlsx'))).toBe(false);
  });
});
