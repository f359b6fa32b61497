import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildZip } from '@dc/extraction';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';

const dataset = (name: string) => readFileSync(path.join(DATASETS, name));
const firstThird = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 3));

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

interface FileView {
  extraction_status: string;
  META: { STATUS: string; ERRORS: string[]; MEMBERS?: Array<{ NAME: string; STATUS: string; ERRORS: string[] }>; FILE?: { TOTAL_ROWS: number } } | null;
}

/**
 * Bad files sent through POST /api/records/ and described by the real extractor (libs/extraction)
 * in the service's own background worker: each gets a record whose Working state ends with META
 * saying what is wrong. No 5xx, no crash, no extraction left running.
 */
describeInfra('bad input through POST /api/records/ with the real extractor (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_bad_input');
    catalogue = await CatalogueTestApp.start(db.url);
    await catalogue.feedDirectory([owner], { [org]: 'Acme' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  const upload = async (bytes: Buffer, fileName: string) => {
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(await catalogue.auth(owner))
      .field('allowDuplicate', 'true')
      .attach('file', bytes, fileName);
    expect([fileName, response.status]).toEqual([fileName, 201]);
    return response.body as { id: string; extraction_status: string };
  };

  /** Waits until the record leaves the Working state; returns its one file. */
  const extracted = (id: string) =>
    eventually(async () => {
      const details = await catalogue
        .http()
        .get(`/api/records/${id}`)
        .set(await catalogue.auth(owner));
      expect(details.status).toBe(200);
      expect(details.body.extraction_status).toBe('done');
      return details.body.FILES[0] as FileView & { META: NonNullable<FileView['META']> };
    });

  const csv = dataset('csv/co2-annmean-gl.csv');
  const cases: Array<[string, () => Buffer, string, RegExp]> = [
    ['an empty file', () => Buffer.alloc(0), 'empty.csv', /^The file is empty$/],
    ['a corrupt .xlsx (the first third of a real workbook)', () => firstThird(dataset('excel/Auto.xlsx')), 'Auto.xlsx', /Damaged|zip/i],
    [
      'a corrupt .xls (the first third of a real workbook: its own reader declines it, SheetJS fails on it)',
      () => firstThird(dataset('excel/titanic3.xls')),
      'titanic3.xls',
      /^Damaged workbook/,
    ],
    ['a truncated PDF', () => firstThird(dataset('pdf/irs-fw9-2018.pdf')), 'fw9.pdf', /Damaged PDF/],
    ['a PDF under a .csv name', () => dataset('pdf/autogen-paper-excerpt.pdf'), 'paper.csv', /binary data/],
    ['a CSV named .xlsx', () => csv, 'co2.xlsx', /Not an Office Open XML/],
    ['a 10 MB single line', () => Buffer.from('x'.repeat(10 * 1024 * 1024)), 'one-line.csv', /maxLineBytes/],
    [
      'a zip with a path-traversal entry',
      () =>
        buildZip([
          { name: 'fine.csv', data: csv },
          { name: '../evil.csv', data: csv },
        ]),
      'traversal.zip',
      /archive is rejected/,
    ],
    [
      'an .xlsx that is a zip bomb',
      () =>
        buildZip([
          { name: '[Content_Types].xml', data: '<Types/>' },
          { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(40 * 1024 * 1024, 0x20) },
        ]),
      'bomb.xlsx',
      /maxZipRatio/,
    ],
  ];

  it.each(cases)('%s: 201, then META with STATUS failed and a clear error, and the Working state ends', async (_what, bytes, fileName, message) => {
    const record = await upload(bytes(), fileName);
    expect(record.extraction_status).toBe('working');
    const file = await extracted(record.id);
    expect(file.extraction_status).toBe('failed');
    expect(file.META.STATUS).toBe('failed');
    expect(file.META.ERRORS[0]).toMatch(message);
    // What users see never names the server's paths or internals.
    expect(JSON.stringify(file.META)).not.toMatch(/\/tmp\/|\/work\/|at .*\.ts:\d+/);
  });

  it('a CSV with invalid UTF-8 (real Latin-1) is read as Windows-1252, and ERRORS says where', async () => {
    const file = await extracted((await upload(dataset('csv/btw25-bw-kreise.csv'), 'btw25.csv')).id);
    expect(file.extraction_status).toBe('done');
    expect(file.META.FILE?.TOTAL_ROWS).toBe(39);
    expect(file.META.ERRORS[0]).toMatch(/^Invalid UTF-8 at byte \d+: the text from there on was read as Windows-1252 \(Latin-1\)$/);
  });

  it('a zip bomb: the bombing member is not inflated and says why; the others are described', async () => {
    const bomb = buildZip([
      { name: 'ok.csv', data: 'a,b\n1,x\n2,y\n' },
      { name: 'zeros.csv', data: Buffer.alloc(50 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const file = await extracted((await upload(bomb, 'bomb.zip')).id);
    expect(file.META.MEMBERS?.map((m) => [m.NAME, m.STATUS])).toEqual([
      ['ok.csv', 'complete'],
      ['zeros.csv', 'failed'],
    ]);
    expect(file.META.MEMBERS?.[1].ERRORS[0]).toMatch(/Compression ratio \d+:1 is above maxZipRatio 100:1/);
  });

  it('afterwards the worker still extracts a good file, and no extraction is left running', async () => {
    const file = await extracted((await upload(csv, 'co2.csv')).id);
    expect(file).toMatchObject({ extraction_status: 'done', META: { STATUS: 'complete', FILE: { TOTAL_ROWS: 47 } } });
    expect(await catalogue.sql(`SELECT id FROM catalogue.files WHERE extraction_status IN ('pending', 'running')`)).toEqual([]);
  });
});
