// The one-pass record reader must describe every file exactly as papaparse did: same statistics,
// dialect, parse errors and stop messages, whatever the chunk boundaries.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractCsv } from './csv';
import { readSimpleRecords } from './csv-records';
import { resolveLimits } from './extract';
import { DATASETS, streamOf } from './spec-support';
import type { ExtractionLimits } from './types';

async function both(bytes: Buffer | string, fileName: string, chunkSize: number, limits?: Partial<ExtractionLimits>): Promise<void> {
  const ctx = { option: 'samples' as const, limits: resolveLimits(limits), fileName, allowArchives: false };
  const run = (records: 'one-pass' | 'papaparse') => extractCsv(streamOf(bytes, chunkSize), ctx, { records }).then(
    (result) => result,
    (error: Error) => ({ rejected: `${error.name}: ${error.message}` }),
  );
  expect(await run('one-pass')).toEqual(await run('papaparse'));
}

const CSV_DIR = path.join(DATASETS, 'csv');
const FILES = readdirSync(CSV_DIR).filter((name) => /\.(csv|tsv)$/i.test(name));

describe('one-pass CSV records give what papaparse gave', () => {
  it('finds the shared datasets', () => expect(FILES.length).toBeGreaterThanOrEqual(10));

  it.each(FILES)('%s, read in large and in odd small chunks', async (name) => {
    const bytes = readFileSync(path.join(CSV_DIR, name));
    for (const chunk of [64 * 1024, 4099, 97]) await both(bytes, name, chunk);
  });

  // Each case is read whole and in chunks of 1 to 7 bytes, so every boundary falls everywhere.
  const TRICKY: Array<[string, string | Buffer]> = [
    ['quoted delimiters, doubled quotes, empty quoted fields', 'a,b,c\n1,"x, y",""\n2,"say ""hi""",z\n3,,\n'],
    ['quoted line breaks', 'id,text\n1,"two\nlines"\n2,"crlf\r\ninside"\n3,plain\n'],
    ['CRLF line ends and a last record without one', 'a;b\r\n1,5;x\r\n2,25;"y;z"\r\n;\r\n3;w'],
    ['decimal commas', 'x;y;label\n1,5;2;a\n-0,25;3,75;b\n"4,5";NA;c\n'],
    ['empty lines and blank records', 'a,b\n\n1,2\n , \n\n3,4\n\n'],
    ['a quote inside a field', 'h,w\nTom,5\'11"\nAnn,"6\'0"""\n'],
    ['spaces after a closing quote', 'a,b\n"x"  ,1\n"y" \n'],
    ['an unclosed quote', 'a,b\n1,"never closed\n2,3\n'],
    ['text after a closing quote', 'a,b\n"x"y,1\n2,3\n'],
    ['mixed line ends', 'a,b\r\n1,2\n3,4\r\n5,6\r7,8\r\n'],
    ['carriage returns only', 'a\tb\r1\t2\r3\t"x\ry"\r'],
    ['a byte order mark inside', 'a,b\n1,2\n\uFEFF3,4\n'],
    ['a tab-separated file', 'name\tvalue\n"a\tb"\t1\nc\t2\n'],
    ['more cells than headers', 'a,b\n1,2,3\n4,5,"6"\n'],
    ['Latin-1 bytes', Buffer.from('name;city;value\nJos\xe9;K\xf6ln;1,5\nRen\xe9e;"Z\xfcrich; Altstadt";2,25\n', 'latin1')],
    ['a closing quote at the very end', 'a,b\n1,"x"'],
    ['a delimiter at the very end', 'a,b\n1,'],
  ];

  it.each(TRICKY)('%s', async (_name, text) => {
    for (const chunk of [1 << 20, 1, 2, 3, 5, 7]) await both(text, 'tricky.csv', chunk);
  });

  it('stops at the same record when one is longer than maxLineBytes', async () => {
    const text = `a,b\n1,2\n3,${'x'.repeat(300)}\n4,5\n`;
    for (const chunk of [1 << 20, 64, 7]) await both(text, 'long.csv', chunk, { maxLineBytes: 100 });
  });

  it('stops after maxRowsScanned like before', async () => {
    const text = `a,b\n${Array.from({ length: 50 }, (_, i) => `${i},"v ${i}"`).join('\n')}\n`;
    for (const chunk of [1 << 20, 13]) await both(text, 'rows.csv', chunk, { maxRowsScanned: 17 });
  });
});

describe('readSimpleRecords', () => {
  it('reads complete records and stops before an unfinished one', () => {
    expect(readSimpleRecords('a,"b,""c"""\r\n1,2\r\n3,', ',', '\r\n', false)).toEqual({ rows: [['a', 'b,"c"'], ['1', '2']], end: 18, longest: 13 });
  });

  it('ends the last record at the end of the text when final', () => {
    expect(readSimpleRecords('a;b\n;"x\ny"', ';', '\n', true)).toEqual({ rows: [['a', 'b'], ['', 'x\ny']], end: 4, longest: 4 });
  });

  it('leaves to papaparse what it does not read the same way', () => {
    expect(readSimpleRecords('a,b"c\n', ',', '\n', true)).toBeNull();
    expect(readSimpleRecords('"a" ,b\n', ',', '\n', true)).toBeNull();
    expect(readSimpleRecords('a,b\r\n1,2\n', ',', '\r\n', true)).toBeNull();
    expect(readSimpleRecords('"open\n', ',', '\n', true)).toBeNull();
  });
});
