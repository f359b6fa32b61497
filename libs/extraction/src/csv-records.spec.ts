// The byte reader and the one-pass record reader must describe every file exactly as papaparse did:
// same statistics, dialect, encoding, parse errors and stop messages, whatever the chunk boundaries.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractCsv } from './csv';
import { readSimpleRecords } from './csv-records';
import { resolveLimits } from './extract';
import { TextChunkDecoder } from './io';
import { seededRandom } from './seeded-random';
import { SketchCollector } from './sketch';
import { DATASETS, streamOf } from './spec-support.fixture';
import type { ExtractionLimits } from './types';

async function both(bytes: Buffer | string, fileName: string, chunkSize: number, limits?: Partial<ExtractionLimits>): Promise<void> {
  const ctx = { option: 'samples' as const, limits: resolveLimits(limits), fileName, allowArchives: false };
  // META and the column sketches made in the same pass.
  const run = (records: 'bytes' | 'one-pass' | 'papaparse') => {
    const sketches = new SketchCollector();
    return extractCsv(streamOf(bytes, chunkSize), { ...ctx, observers: sketches }, { records }).then(
      (result) => ({ result, sketches: sketches.tables }),
      (error: Error) => ({ rejected: `${error.name}: ${error.message}` }),
    );
  };
  const reference = await run('papaparse');
  expect(await run('one-pass')).toEqual(reference);
  expect(await run('bytes')).toEqual(reference);
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
    ['UTF-8 letters, a 4-byte character and a quoted one', 'name,city,n\nJosé,Zürich,1\n"Ŝtefan, Jr.",Köln,2\n😀,"a😀b",3\nplain,ascii,4\n'],
    ['non-ASCII white space around values', 'a,b\n\u00a01\u00a0,x\n\u3000 2,\u2003y\u2003\n\u00a0,\u00a0\n3,z\n'],
    ['a UTF-8 byte order mark at the start', '\uFEFFa,b\n1,2\n3,4\n'],
    ['UTF-16 with its byte order mark', Buffer.from('\uFEFFa,b\n1,2\n3,é\n', 'utf16le')],
    ['valid UTF-8, then Latin-1 bytes', Buffer.concat([Buffer.from('a;b\nnaïve;1,5\n'), Buffer.from('Jos\xe9;2\n"R\xe9n\xe9e";3,25\n\xe9', 'latin1')])],
    ['Windows-1252 characters (curly quotes, euro)', Buffer.from([...Buffer.from('a,b\n'), 0x93, 0x78, 0x94, 0x2c, 0x80, 0x0a, 0x31, 0x2c, 0x32, 0x0a])],
    ['numbers a column reads as text and as dates', 'a,b,c\n12345678901234567,2024-01-31,10:20\n1.5e400,31/01/2024,1:2\n-0,2024-1-1,true\n'],
  ];

  it.each(TRICKY)('%s', async (_name, text) => {
    for (const chunk of [1 << 20, 1, 2, 3, 5, 7]) await both(text, 'tricky.csv', chunk);
  });

  it('stops at the same record when one is longer than maxLineBytes', async () => {
    const text = `a,b\n1,2\n3,${'x'.repeat(300)}\n4,5\n`;
    for (const chunk of [1 << 20, 64, 7]) await both(text, 'long.csv', chunk, { maxLineBytes: 100 });
  });

  it('measures records in characters, not bytes, against maxLineBytes', async () => {
    // 60 characters of 2 bytes each: over a 100-byte limit in bytes, within it in characters.
    const text = `a,b\n1,${'é'.repeat(60)}\n2,${'é'.repeat(120)}\n3,x\n`;
    for (const chunk of [1 << 20, 64, 7]) await both(text, 'wide.csv', chunk, { maxLineBytes: 100 });
    for (const chunk of [1 << 20, 64, 7]) await both(`a,b\n1,${'é'.repeat(60)}\n2,x\n`, 'wide.csv', chunk, { maxLineBytes: 100 });
  });

  // The first 64 KiB are read to detect the dialect; these files go on well past them, so every
  // reader also meets its cases in later chunks.
  const rows = (count: number, row: (i: number) => string): string => Array.from({ length: count }, (_, i) => `${row(i)}\n`).join('');

  it('a Latin-1 file whose first bad byte comes late, in every chunking', async () => {
    const row = (i: number): string => `${i},"naïve ${i}",${i % 7 === 0 ? 'caf\xe9' : 'plain'}`;
    const utf8Head = Buffer.from(`id,text,word\n${rows(4000, row)}`);
    const latin1Tail = Buffer.from(
      rows(300, (i) => row(i + 4000).replaceAll('ï', 'i')),
      'latin1',
    );
    const bytes = Buffer.concat([utf8Head, latin1Tail]);
    expect(utf8Head.length).toBeGreaterThan(64 * 1024);
    for (const chunk of [1 << 20, 4096, 1001, 97]) await both(bytes, 'late.csv', chunk);
  });

  it('numbers written every way, with their sketches (hashed by their canonical text)', async () => {
    const random = seededRandom(21);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const digits = (n: number): string => Array.from({ length: n }, () => pick([...'0123456789'])).join('');
    const forms = [
      () => digits(1 + Math.floor(random() * 15)),
      () => `-${digits(1 + Math.floor(random() * 6))}.${digits(1 + Math.floor(random() * 6))}`,
      () => `${pick(['', '+', '-', '0', '00'])}${digits(Math.floor(random() * 4))}.${digits(Math.floor(random() * 9))}`,
      () => `0.${'0'.repeat(Math.floor(random() * 9))}${digits(1 + Math.floor(random() * 3))}`,
      () => `${digits(1 + Math.floor(random() * 3))}${pick(['e', 'E'])}${pick(['', '-', '+'])}${digits(1 + Math.floor(random() * 3))}`,
      () =>
        pick([
          '-0',
          '0',
          '-0.0',
          '0.10',
          '1.50',
          '100',
          '1e21',
          '1e400',
          '0x1F',
          '0B101',
          '0o17',
          '+0x10',
          '12345678901234567890',
          '-98765432109876543',
          'Infinity',
          'NaN',
          'N/A',
        ]),
      () => `${digits(4)}-${digits(2)}-${digits(2)}`,
      () => pick(['River', 'RIVER', 'river flow', 'Flow', 'true', 'YES', 'x1', ' padded ', '']),
    ];
    const text = `a,b,c\n${rows(12_000, () => `${pick(forms)()},${pick(forms)()},${pick(forms)()}`)}`;
    for (const chunk of [1 << 20, 5003]) await both(text, 'numbers.csv', chunk);
  });

  it.each([
    ['a quote inside a field', (i: number) => (i === 9000 ? `${i},5'11"` : `${i},x`)],
    ['mixed line ends', (i: number) => (i === 9000 ? `${i},x\r` : `${i},x`)],
    ['an unclosed quote', (i: number) => (i === 9000 ? `${i},"open` : `${i},x`)],
    ['a byte order mark at a record start', (i: number) => (i === 9000 ? `\uFEFF${i},x` : `${i},x`)],
    ['UTF-8 and quoted line breaks', (i: number) => (i % 10 === 0 ? `${i},"é\nü"` : `${i},"ok, ${i}"`)],
    ['a record longer than maxLineBytes', (i: number) => (i === 9000 ? `${i},${'x'.repeat(2000)}` : `${i},x`)],
  ])('%s, after the first 64 KiB', async (_name, row) => {
    const bytes = Buffer.from(`n,v\n${rows(12000, row)}`);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    for (const chunk of [1 << 20, 4096, 777]) await both(bytes, 'later.csv', chunk, { maxLineBytes: 1000 });
  });

  it('stops after maxRowsScanned like before', async () => {
    const text = `a,b\n${Array.from({ length: 50 }, (_, i) => `${i},"v ${i}"`).join('\n')}\n`;
    for (const chunk of [1 << 20, 13]) await both(text, 'rows.csv', chunk, { maxRowsScanned: 17 });
  });
});

describe('TextChunkDecoder', () => {
  it('keeps a byte held back at a chunk end when the text turns out to be Windows-1252', () => {
    const decoder = new TextChunkDecoder();
    // The chunk ends with \xe9, which could start a UTF-8 sequence, so it is held back; the \xe9 before it is not UTF-8.
    const text = decoder.decode(Buffer.from('x\xe9y\xe9', 'latin1')) + decoder.decode(Buffer.from('z')) + decoder.end();
    expect(text).toBe('xéyéz');
    expect(decoder.problem()).toBe('Invalid UTF-8 at byte 1: the text from there on was read as Windows-1252 (Latin-1)');
  });

  it('advance() moves on as decode() does, and resumes at a record start in the right encoding', () => {
    const bytes = Buffer.concat([Buffer.from('\uFEFFab,ü\n'), Buffer.from('c\xe9,d\n\xe9', 'latin1')]);
    const decoding = new TextChunkDecoder();
    const advancing = new TextChunkDecoder();
    for (let i = 0; i < bytes.length; i += 3) {
      decoding.decode(bytes.subarray(i, i + 3));
      advancing.advance(bytes.subarray(i, i + 3));
    }
    decoding.end();
    advancing.advanceEnd();
    expect([advancing.problem(), advancing.encoding, advancing.bomLength]).toEqual([decoding.problem(), decoding.encoding, 3]);
    expect(advancing.windows1252From).toBe(10);
    expect(TextChunkDecoder.resumeAt(10, advancing).decode(bytes.subarray(10))).toBe('é,d\né');
    const early = TextChunkDecoder.resumeAt(3, advancing);
    expect(early.decode(bytes.subarray(3)) + early.end()).toBe('ab,ü\ncé,d\né');
    expect(early.problem()).toBe(advancing.problem());
  });
});

describe('readSimpleRecords', () => {
  it('reads complete records and stops before an unfinished one', () => {
    expect(readSimpleRecords('a,"b,""c"""\r\n1,2\r\n3,', ',', '\r\n', false)).toEqual({
      rows: [
        ['a', 'b,"c"'],
        ['1', '2'],
      ],
      end: 18,
      longest: 13,
    });
  });

  it('ends the last record at the end of the text when final', () => {
    expect(readSimpleRecords('a;b\n;"x\ny"', ';', '\n', true)).toEqual({
      rows: [
        ['a', 'b'],
        ['', 'x\ny'],
      ],
      end: 4,
      longest: 4,
    });
  });

  it('leaves to papaparse what it does not read the same way', () => {
    expect(readSimpleRecords('a,b"c\n', ',', '\n', true)).toBeNull();
    expect(readSimpleRecords('"a" ,b\n', ',', '\n', true)).toBeNull();
    expect(readSimpleRecords('a,b\r\n1,2\n', ',', '\r\n', true)).toBeNull();
    expect(readSimpleRecords('"open\n', ',', '\n', true)).toBeNull();
  });
});
