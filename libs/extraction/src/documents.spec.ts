import { readFileSync } from 'node:fs';
import yauzl from 'yauzl';
import { dataset, extractDataset } from './spec-support.fixture';

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Reads one part of a zip container with yauzl directly (not through the library). */
function readPart(file: string, part: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== part) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => (zip.close(), resolve(Buffer.concat(chunks).toString('utf8'))));
        });
      });
      zip.on('end', () => reject(new Error(`${part} not found`)));
      zip.readEntry();
    });
  });
}

describe.each([
  { file: 'txt/Alaska_SOTS.txt', top: 'alaska' },
  { file: 'txt/Colorado_SOTS.txt', top: 'colorado' },
])('text $file', ({ file, top }) => {
  it('counts lines, words and characters as a direct reading does, and finds its keywords', async () => {
    const text = readFileSync(dataset(file), 'utf8').replace(/^\uFEFF/, '');
    const result = await extractDataset(file);
    expect(result.STATUS).toBe('complete');
    expect(result.TYPE).toBe('txt');
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const tokens = (text.match(WORD) ?? []).map((w) => w.toLowerCase().replace(/’/g, "'"));
    expect(result.DOCUMENT).toEqual({ LINES: lines.length, WORDS: tokens.length, CHARACTERS: text.length, ENCODING: 'utf-8' });
    // The most frequent long word is the first keyword; every keyword is a frequent word of the text.
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const longest = [...counts.entries()].filter(([w]) => w.length >= 6).sort((a, b) => b[1] - a[1])[0][0];
    expect(longest).toBe(top);
    expect(result.KEYWORDS?.[0]).toBe(top);
    expect(result.KEYWORDS).toHaveLength(20);
    for (const keyword of result.KEYWORDS ?? []) expect(counts.get(keyword)).toBeGreaterThanOrEqual(5);
    for (const word of result.WORDSET ?? []) expect(counts.has(word)).toBe(true);
    expect(result.WORDSET).toHaveLength(200);
  });
});

describe('PDF', () => {
  it.each([
    { file: 'pdf/irs-fw9-2018.pdf', pages: 6, words: 5800, keywords: ['form', 'tax', 'withholding'] },
    { file: 'pdf/masculinity-survey.pdf', pages: 6, words: 1200, keywords: ['men', 'sexual'] },
    { file: 'pdf/autogen-paper-excerpt.pdf', pages: 1, words: 760, keywords: ['agents', 'conversation', 'llms'] },
  ])('$file: pages, text and keywords', async ({ file, pages, words, keywords }) => {
    const result = await extractDataset(file);
    expect(result.STATUS).toBe('complete');
    expect(result.DOCUMENT?.PAGES).toBe(pages);
    // Word counts in the datasets README are approximate ("~5,800 words").
    expect(result.DOCUMENT?.WORDS).toBeGreaterThan(words * 0.9);
    expect(result.DOCUMENT?.WORDS).toBeLessThan(words * 1.1);
    expect(result.KEYWORDS).toEqual(expect.arrayContaining(keywords));
  });

  it('reads the Info dictionary of the W-9', async () => {
    const result = await extractDataset('pdf/irs-fw9-2018.pdf');
    expect(result.DOCUMENT?.TITLE).toBe('Form W-9 (Rev. October 2018)');
    expect(result.DOCUMENT?.SUBJECT).toBe('Request for Taxpayer Identification Number and Certification');
  });
});

describe('DOCX', () => {
  it.each([{ file: 'docx/autogen-paper-excerpt.docx' }, { file: 'docx/autogen-paper-excerpt-with-comment.docx' }, { file: 'docx/docx-tables.docx' }])(
    '$file: text words and tables match the document XML',
    async ({ file }) => {
      const xml = await readPart(dataset(file), 'word/document.xml');
      const body = xml
        .replace(/<\/w:p>/g, '\n')
        .replace(/<w:tab\/>/g, ' ')
        .replace(/<[^>]+>/g, '')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'");
      const xmlWords = (body.match(WORD) ?? []).length;
      const result = await extractDataset(file);
      expect(result.STATUS).toBe('complete');
      expect(result.DOCUMENT?.TABLES).toBe((xml.match(/<w:tbl>/g) ?? []).length);
      expect(Math.abs((result.DOCUMENT?.WORDS ?? 0) - xmlWords)).toBeLessThanOrEqual(Math.ceil(xmlWords * 0.02));
    },
  );

  it('docx-tables: three tables, one of them nested in another', async () => {
    const result = await extractDataset('docx/docx-tables.docx');
    expect(result.DOCUMENT?.TABLES).toBe(4);
    expect(result.KEYWORDS).toEqual(expect.arrayContaining(['table', 'nested', 'merged']));
  });

  it('the same paper as PDF and DOCX gives largely the same words', async () => {
    const pdf = await extractDataset('pdf/autogen-paper-excerpt.pdf');
    const docx = await extractDataset('docx/autogen-paper-excerpt.docx');
    const a = new Set(pdf.WORDSET);
    const b = new Set(docx.WORDSET);
    const shared = [...a].filter((w) => b.has(w)).length;
    expect(shared / new Set([...a, ...b]).size).toBeGreaterThan(0.5);
  });
});
