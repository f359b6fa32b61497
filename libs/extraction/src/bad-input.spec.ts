import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { CorruptFileError, ExtractionLimitError, UnsupportedFileError } from './errors';
import { extractMetadata } from './extract';
import { buildZip, dataset, extract, streamOf } from './spec-support.fixture';

describe('empty files', () => {
  it.each(['empty.csv', 'empty.txt', 'empty.hl7', 'empty.xlsx', 'empty.xls', 'empty.pdf', 'empty.docx', 'empty.zip'])(
    '%s fails with "The file is empty"',
    async (name) => {
      const result = await extract(Buffer.alloc(0), name);
      expect(result.STATUS).toBe('failed');
      expect(result.ERRORS).toEqual(['The file is empty']);
      expect(result.FILE).toBeUndefined();
    },
  );

  it('a CSV of blank lines holds no records', async () => {
    const result = await extract('\n\n;;;\n', 'blank.csv');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS).toEqual(['The file holds no records']);
  });
});

describe('wrong extensions', () => {
  it('a PDF named .csv is binary, not delimited text', async () => {
    const result = await extract(readFileSync(dataset('pdf/autogen-paper-excerpt.pdf')), 'paper.csv');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(/binary data/);
  });

  it('a CSV named .xlsx, .xls, .pdf or .docx is refused by its signature', async () => {
    const text = readFileSync(dataset('csv/co2-annmean-gl.csv'));
    for (const [name, message] of [
      ['co2.xlsx', /Not an Office Open XML/],
      ['co2.xls', /Not an Excel \(\.xls\) workbook/],
      ['co2.pdf', /Not a PDF/],
      ['co2.docx', /Not a Word/],
    ] as const) {
      const result = await extract(text, name);
      expect(result.STATUS).toBe('failed');
      expect(result.ERRORS[0]).toMatch(message);
    }
  });

  it('a type without extraction is skipped and says so', async () => {
    const result = await extract(Buffer.from([0xff, 0xd8, 0xff]), 'photo.jpg');
    expect(result).toMatchObject({ STATUS: 'skipped', TYPE: 'other', CONTENT_TYPE: 'image/jpeg' });
    expect(result.ERRORS[0]).toMatch(/No metadata extraction/);
  });
});

describe('malformed CSV', () => {
  it('rows longer or shorter than the header and an unclosed quote give ERRORS, not a crash', async () => {
    const result = await extract('a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,"open,11\n', 'bad.csv');
    expect(result.STATUS).toBe('complete');
    expect(result.FILE?.TOTAL_ROWS).toBe(4);
    expect(result.FILE?.STATS['2'].MISSING_VALS).toBe(2); // the short row and the row swallowed by the quote
    expect(result.ERRORS).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/1 rows have more values than the 3 headers \(first: row 4\)/),
        expect.stringMatching(/Quoted field unterminated/),
      ]),
    );
  });

  it('record numbers in errors hold across the slices of a large file', async () => {
    const result = await extract(`a,b\n${'1,2\n'.repeat(30_000)}3,4,5\n`, 'long.csv');
    expect(result.FILE?.TOTAL_ROWS).toBe(30_001);
    expect(result.ERRORS).toEqual(['1 rows have more values than the 2 headers (first: row 30002); the extra values are ignored']);
  });

  it('a headerless numeric file gets generated header names', async () => {
    const result = await extract('1,2\n3,4\n', 'numbers.csv');
    expect(result.CSV?.HAS_HEADER).toBe(false);
    expect(result.FILE?.HEADERS).toEqual(['Column 1', 'Column 2']);
    expect(result.FILE?.TOTAL_ROWS).toBe(2);
    expect(result.FILE?.STATS['1'].MEAN).toBe(3);
  });

  it('BOM, CRLF, pipes and quotes are handled', async () => {
    const result = await extract(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name|value\r\n"a|b"|1\r\nc|2\r\n')]), 'pipes.csv');
    expect(result.CSV).toEqual({ DELIMITER: '|', ENCODING: 'utf-8', HAS_HEADER: true, LINE_ENDING: '\r\n' });
    expect(result.FILE?.HEADERS).toEqual(['name', 'value']);
    expect(result.FILE?.STATS['0'].FORMATTED_VALS).toEqual(['a|b', 'c']);
  });

  it('UTF-16 with a BOM is decoded', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x;y\n1;2\n', 'utf16le')]);
    const result = await extract(bytes, 'wide.csv');
    expect(result.CSV?.ENCODING).toBe('utf-16le');
    expect(result.FILE?.HEADERS).toEqual(['x', 'y']);
  });
});

describe('invalid UTF-8', () => {
  const bytes = Buffer.concat([
    Buffer.from('city,count\nZürich,1\n'),
    Buffer.from([0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e]),
    Buffer.from(',2\n'),
    Buffer.from([0xc3, 0x28, 0xa0, 0xa1]),
    Buffer.from(',3\n'),
  ]);

  it('CSV: the rest is read as Windows-1252 and ERRORS says where', async () => {
    const result = await extract(bytes, 'cities.csv', 'metadata');
    expect(result.STATUS).toBe('complete');
    expect(result.FILE?.TOTAL_ROWS).toBe(3);
    expect(result.FILE?.STATS['0'].FORMATTED_VALS.slice(0, 2)).toEqual(['Zürich', 'München']);
    expect(result.ERRORS).toContain('Invalid UTF-8 at byte 22: the text from there on was read as Windows-1252 (Latin-1)');
    expect(result.FILE?.STATS['1'].MEAN).toBe(2);
  });

  it('TXT: the same, with words still counted', async () => {
    const result = await extract(bytes, 'cities.txt');
    expect(result.DOCUMENT?.ENCODING).toBe('windows-1252');
    expect(result.ERRORS[0]).toMatch(/^Invalid UTF-8 at byte 22/);
    expect(result.WORDSET).toEqual(expect.arrayContaining(['zürich', 'münchen']));
  });

  it('a multi-byte character split across chunks is not mistaken for invalid UTF-8', async () => {
    const text = `w\n${'é'.repeat(50_000)}\n`;
    const result = await extractMetadata({ stream: streamOf(Buffer.from(text), 4097), fileName: 'accents.txt' }, { extractOption: 'metadata' });
    expect(result.ERRORS).toEqual([]);
    expect(result.DOCUMENT?.CHARACTERS).toBe(text.length);
  });
});

describe('huge lines', () => {
  const line = 'x'.repeat(10 * 1024 * 1024);

  it('CSV: a 10 MB record stops the reading at maxLineBytes with a partial result', async () => {
    const result = await extract(`a,b\n1,2\n3,4\n${line},5\n6,7\n`, 'huge.csv');
    expect(result.STATUS).toBe('partial');
    expect(result.FILE?.TOTAL_ROWS).toBeLessThanOrEqual(2);
    expect(result.ERRORS.some((e) => /longer than 1048576 characters \(maxLineBytes\)/.test(e))).toBe(true);
  });

  it('CSV: a 10 MB first line (no header possible) fails on the limit', async () => {
    const result = await extract(line, 'huge.csv');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(/maxLineBytes/);
  });

  it('CSV: an unclosed quote cannot make the reader hold the rest of a large file', async () => {
    const result = await extract(`a,b\n1,"${'y,'.repeat(800_000)}\n`, 'quote.csv');
    expect(result.STATUS).toBe('partial');
    expect(result.ERRORS[0]).toMatch(/unclosed quote/);
  });

  it('TXT: a 10 MB single line is counted in flat memory and noted', async () => {
    const words = 'lorem ipsum '.repeat(900_000);
    const result = await extract(words, 'one-line.txt');
    expect(result.STATUS).toBe('complete');
    expect(result.DOCUMENT).toMatchObject({ LINES: 1, WORDS: 1_800_000 });
    expect(result.ERRORS[0]).toMatch(/1 lines are longer than 1048576 characters/);
  });

  it('HL7: a 10 MB segment is skipped', async () => {
    const result = await extract(`MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\nNTE|1||${line}\nPID|1||42\n`, 'big.hl7');
    expect(result.STATUS).toBe('complete');
    expect(result.HL7?.SEGMENTS).toEqual({ MSH: 1, PID: 1 });
    expect(result.ERRORS[0]).toMatch(/1 segments longer than/);
  });
});

describe('corrupt documents', () => {
  it.each([
    ['excel/Auto.xlsx', 'Auto.xlsx', /Damaged|zip/i],
    ['excel/titanic3.xls', 'titanic3.xls', /Damaged|workbook/i],
    ['pdf/irs-fw9-2018.pdf', 'fw9.pdf', /Damaged PDF/],
    ['docx/autogen-paper-excerpt.docx', 'paper.docx', /Damaged|zip/i],
  ])('a truncated %s fails with a clear error', async (file, name, message) => {
    const bytes = readFileSync(dataset(file));
    const result = await extract(bytes.subarray(0, Math.floor(bytes.length / 3)), name);
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(message);
  });

  it('an .xlsx that is a zip bomb is refused before SheetJS inflates it', async () => {
    const bomb = buildZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(40 * 1024 * 1024, 0x20) },
    ]);
    const result = await extract(bomb, 'bomb.xlsx');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(/maxZipRatio/);
  });

  it('a .docx or .xlsx whose parts inflate past ten times the size limit is refused', async () => {
    const container = buildZip([{ name: 'word/document.xml', data: 'abcdefghij'.repeat(3000) }]);
    expect(container.length).toBeLessThan(1000);
    for (const [name, limits] of [
      ['small.docx', { maxDocumentBytes: 1000 }],
      ['small.xlsx', { maxSpreadsheetBytes: 1000 }],
    ] as const) {
      const result = await extract(container, name, 'metadata', limits);
      expect(result.STATUS).toBe('failed');
      expect(result.ERRORS[0]).toBe('Parts expand to more than 10000 bytes: not extracted');
    }
  });

  it('an HL7 file without MSH is not HL7', async () => {
    const result = await extract('PID|1||42\nhello\n', 'x.hl7');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(/no MSH segment/);
  });
});

describe('limits', () => {
  it('spreadsheets above maxSpreadsheetBytes are refused, with or without a declared size', async () => {
    const bytes = readFileSync(dataset('excel/Auto.xlsx'));
    const declared = await extractMetadata(
      { stream: streamOf(bytes), fileName: 'Auto.xlsx', size: bytes.length },
      { extractOption: 'metadata', limits: { maxSpreadsheetBytes: 10_000 } },
    );
    expect(declared.STATUS).toBe('failed');
    expect(declared.ERRORS[0]).toMatch(/maxSpreadsheetBytes/);
    const counted = await extract(bytes, 'Auto.xlsx', 'metadata', { maxSpreadsheetBytes: 10_000 });
    expect(counted.STATUS).toBe('failed');
    expect(counted.ERRORS[0]).toMatch(/larger than 10000 bytes/);
  });

  it('maxRowsScanned stops CSV and spreadsheet reading early with a partial result', async () => {
    const csv = await extract(readFileSync(dataset('csv/gdp.csv')), 'gdp.csv', 'metadata', { maxRowsScanned: 100 });
    expect(csv.STATUS).toBe('partial');
    expect(csv.FILE?.TOTAL_ROWS).toBe(100);
    expect(csv.SIZE).toBeNull();
    const xls = await extract(readFileSync(dataset('excel/titanic3.xls')), 'titanic3.xls', 'metadata', { maxRowsScanned: 50 });
    expect(xls.STATUS).toBe('partial');
    expect(xls.FILE?.TOTAL_ROWS).toBe(50);
  });

  it('maxColumns bounds the columns described', async () => {
    const header = Array.from({ length: 30 }, (_, i) => `c${i}`).join(',');
    const result = await extract(`${header}\n${'1,'.repeat(29)}1\n`, 'wide.csv', 'metadata', { maxColumns: 10 });
    expect(result.FILE?.HEADERS).toHaveLength(10);
    expect(result.ERRORS[0]).toMatch(/30 columns: only the first 10/);
  });
});

describe('onInvalid: throw', () => {
  it('throws the typed errors instead of reporting them', async () => {
    const run = (bytes: Buffer | string, fileName: string) =>
      extractMetadata({ stream: streamOf(bytes), fileName }, { extractOption: 'metadata', onInvalid: 'throw', limits: { maxSpreadsheetBytes: 1000 } });
    await expect(run('', 'a.csv')).rejects.toBeInstanceOf(CorruptFileError);
    await expect(run('x', 'a.jpg')).rejects.toBeInstanceOf(UnsupportedFileError);
    await expect(run(readFileSync(dataset('excel/Auto.xlsx')), 'Auto.xlsx')).rejects.toBeInstanceOf(ExtractionLimitError);
    await expect(run(buildZip([{ name: '../x.csv', data: 'a' }]), 'x.zip')).rejects.toThrow(/path traversal/);
  });

  it('errors of the stream itself always reject', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('storage went away'));
      },
    });
    await expect(extractMetadata({ stream: failing, fileName: 'a.csv' }, { extractOption: 'metadata' })).rejects.toThrow('storage went away');
  });
});
