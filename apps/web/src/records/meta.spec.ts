import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { extractMetadata } from '@dc/extraction';
import { documentFactsOf, errorsOf, latestFile, MAX_MEMBER_SECTIONS, sharingOf, tableMetadataOf, tableOf, tableOverviewOf, wordSetOf } from './meta';
import { formatNumber } from '../lib/format';
import type { CatalogueRecord, FileMeta, RecordFile } from './types';

function datasetsDir(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  throw new Error('shared/datasets not found above the repository');
}

/** META as the catalogue stores it: what libs/extraction makes of a real file, through JSON. */
async function metaOf(
  relative: string,
  privateColumns?: { hash?: string[]; formats?: Array<{ column: string; format: 'mask' | 'exclude' | 'plain' }> },
  extractOption: 'metadata' | 'samples' = 'metadata',
): Promise<FileMeta> {
  const bytes = readFileSync(path.join(datasetsDir(), relative));
  const meta = await extractMetadata(
    { stream: Readable.from([bytes]), fileName: path.basename(relative), size: bytes.length },
    { extractOption, privateColumns: privateColumns && { ...privateColumns, linkageKey: new Uint8Array(32).fill(1) } },
  );
  return JSON.parse(JSON.stringify(meta)) as FileMeta;
}

const titles = (meta: FileMeta) => tableMetadataOf(meta).map((s) => s.title);
const factsOf = (meta: FileMeta, title: string) => Object.fromEntries(tableMetadataOf(meta).find((s) => s.title === title)?.facts ?? []);

describe('Table Metadata from real META', () => {
  it('a workbook: every sheet, each with its header row, size and headers', async () => {
    const meta = await metaOf('excel/off-year-turnout-2023.xlsx');
    const sections = tableMetadataOf(meta);
    expect(sections.map((s) => s.title)).toEqual(['Virginia', 'Kentucky', 'Ohio', 'Pennsylvania', 'New Jersey', 'Sources'].map((name) => `Sheet "${name}"`));
    expect(factsOf(meta, 'Sheet "Virginia"')).toEqual({ 'Header row': '1', Rows: '134', Columns: String(meta.SHEETS![0].HEADERS.length) });
    sections.forEach((section, i) => expect(section.table?.HEADERS).toEqual(meta.SHEETS![i].HEADERS));
    // The header sits below two title rows on the second sheet of this one.
    const wti = await metaOf('excel/wti-month.xls');
    expect(titles(wti)).toEqual(['Sheet "Contents"', 'Sheet "Data 1"']);
    expect(factsOf(wti, 'Sheet "Data 1"')).toMatchObject({ 'Header row': '3', Rows: '391', Columns: '2' });
  });

  it('a CSV: its dialect', async () => {
    expect(factsOf(await metaOf('csv/AirQualityUCI.csv'), 'Delimited text')).toMatchObject({
      Delimiter: 'semicolon',
      Encoding: 'utf-8',
      'Header row': 'yes',
      'Line ending': 'LF',
    });
    expect(factsOf(await metaOf('csv/gdp.csv'), 'Delimited text')).toMatchObject({ Delimiter: 'comma', 'Line ending': 'CRLF', Rows: '13,979', Columns: '4' });
    expect(factsOf(await metaOf('csv/unemployment.tsv'), 'Delimited text')).toMatchObject({
      Delimiter: 'tab',
      'Line ending': 'LF',
      Rows: '3218',
      Columns: '2',
    });
    expect(factsOf(await metaOf('csv/btw25-bw-kreise.csv'), 'Delimited text')).toMatchObject({ Delimiter: 'comma', Encoding: 'windows-1252', Rows: '39' });
  });

  it('an HL7 file: messages, version, types and segments', async () => {
    expect(factsOf(await metaOf('hl7/005_MN_ADT_A01.hl7'), 'HL7 v2 messages')).toMatchObject({
      Messages: '1',
      Version: '2.3',
      'Message types': 'ADT^A01',
      Segments: 'MSH 1, EVN 1, PID 1, NK1 2, PV1 1, OBX 1',
      Rows: '7',
    });
  });

  it('an archive: one section per member (capped), with their own tables and errors', async () => {
    const meta = await metaOf('zip/IndoorMovement.zip');
    const sections = tableMetadataOf(meta);
    expect(meta.MEMBERS!.length).toBeGreaterThan(MAX_MEMBER_SECTIONS);
    expect(sections).toHaveLength(MAX_MEMBER_SECTIONS + 1);
    expect(sections.at(-1)!.title).toBe(`… and ${meta.MEMBERS!.length - MAX_MEMBER_SECTIONS} more members`);
    const member = meta.MEMBERS!.find((m) => m.FILE)!;
    const section = sections.find((s) => s.title === `Archive member ${member.NAME}`)!;
    expect(section.table).toEqual(member.FILE);
    expect(Object.fromEntries(section.facts)).toMatchObject({ Type: 'csv', Status: 'complete', Rows: formatNumber(member.FILE!.TOTAL_ROWS) });
  });

  it('documents have no Table Metadata; a database table shows its TABLE facts', async () => {
    expect(tableMetadataOf(await metaOf('pdf/autogen-paper-excerpt.pdf'))).toEqual([]);
    expect(tableMetadataOf(await metaOf('txt/Alaska_SOTS.txt'))).toEqual([]);
    expect(tableMetadataOf(null)).toEqual([]);
    expect(tableMetadataOf({ TABLE: { name: 'patients', schema: 'public', columns: 12, nested: { x: 1 } } })).toEqual([
      {
        title: 'Database table',
        facts: [
          ['name', 'patients'],
          ['schema', 'public'],
          ['columns', '12'],
        ],
        table: undefined,
      },
    ]);
  });
});

describe('other META helpers', () => {
  it('tableOf: FILE, else the first sheet, else the first member with a table', async () => {
    const csv = await metaOf('csv/co2-annmean-gl.csv');
    expect(tableOf(csv)?.HEADERS).toEqual(['Year', 'Mean', 'Uncertainty']);
    const zip = await metaOf('zip/IndoorMovement.zip');
    expect(tableOf(zip)).toEqual(zip.MEMBERS!.find((m) => m.FILE)!.FILE);
    expect(tableOf({ SHEETS: [{ NAME: 'A', HEADERS: ['x'], TOTAL_ROWS: 0, STATS: {} }] })?.HEADERS).toEqual(['x']);
    expect(tableOf(await metaOf('pdf/autogen-paper-excerpt.pdf'))).toBeUndefined();
  });

  it('wordSetOf: the document words, or the words of the columns', async () => {
    const text = await metaOf('txt/Alaska_SOTS.txt');
    expect(wordSetOf(text)).toEqual(text.WORDSET);
    // Columns have words only with samples (metadata shows no cell, docs/metadata-before-access.md).
    const sp500 = await metaOf('csv/sp500-constituents.csv', undefined, 'samples');
    expect(wordSetOf(sp500)).toEqual(expect.arrayContaining(['industrials', 'technology']));
    expect(wordSetOf(await metaOf('csv/sp500-constituents.csv'))).toEqual([]);
    expect(wordSetOf(null)).toEqual([]);
  });

  it('errorsOf: the file’s errors and its members’, named', () => {
    const meta: FileMeta = {
      ERRORS: ['More than 1000 entries'],
      MEMBERS: [
        { NAME: 'zeros.csv', ERRORS: ['Compression ratio 1000:1 is above maxZipRatio 100:1'] },
        { NAME: 'ok.csv', ERRORS: [] },
      ],
    };
    expect(errorsOf(meta)).toEqual(['More than 1000 entries', 'zeros.csv: Compression ratio 1000:1 is above maxZipRatio 100:1']);
    expect(errorsOf(undefined)).toEqual([]);
  });

  it('sharingOf: how private columns are shown', async () => {
    const meta = await metaOf('csv/gdp.csv', {
      hash: ['Country Code'],
      formats: [
        { column: 'Country Name', format: 'mask' },
        { column: 'Year', format: 'exclude' },
      ],
    });
    expect(meta.FILE!.HEADERS).toEqual(['Country Name', 'Country Code', 'Value']);
    expect(meta.FILE!.HEADERS.map((_, i) => sharingOf(meta.SHARE_FORMATS, i))).toEqual(['masked', 'hashed', '']);
    expect(sharingOf(undefined, 0)).toBe('');
  });

  it('latestFile: the newest file with META, else the newest', () => {
    const file = (id: string, META: FileMeta | null): RecordFile => ({
      id,
      name: id,
      content_type: 'text/csv',
      size: 0,
      checksum: '',
      META,
      extraction_status: 'done',
      stored: true,
      date_created: '2026-11-25T03:00:00Z',
    });
    const record = (FILES: RecordFile[]) => ({ FILES }) as CatalogueRecord;
    expect(latestFile(record([file('a', { ERRORS: [] }), file('b', { ERRORS: [] }), file('c', null)]))?.id).toBe('b');
    expect(latestFile(record([file('a', null), file('b', null)]))?.id).toBe('b');
    expect(latestFile(record([]))).toBeUndefined();
  });
});

describe('record details in words people read', () => {
  it('documentFactsOf: a PDF’s facts under readable labels, numbers grouped with the exact value kept', async () => {
    const facts = documentFactsOf((await metaOf('pdf/masculinity-survey.pdf')).DOCUMENT, formatNumber);
    const labels = facts.map(([label]) => label);
    expect(labels).toEqual(expect.arrayContaining(['Pages', 'Lines', 'Words', 'Characters']));
    expect(labels.filter((label) => /^[A-Z_]+$/.test(label))).toEqual([]);
    const characters = facts.find(([label]) => label === 'Characters')!;
    expect(characters[1]).toBe(formatNumber(Number(characters[2])));
    expect(documentFactsOf({ DELIMITER: '\t', SOME_KEY: 'x' }, formatNumber)).toEqual([
      ['Delimiter', 'tab'],
      ['Some key', 'x'],
    ]);
  });

  it('tableOverviewOf: rows, columns, missing cells and types of a real CSV', async () => {
    const table = tableOf(await metaOf('csv/AirQualityUCI.csv'))!;
    const overview = tableOverviewOf(table)!;
    expect(overview.rows).toBe(table.TOTAL_ROWS);
    expect(overview.columns).toBe(table.HEADERS.length);
    expect(overview.missingCells).toBe(Object.values(table.STATS).reduce((sum, s) => sum + (s.MISSING_VALS ?? 0), 0));
    expect(overview.types.reduce((sum, [, n]) => sum + n, 0)).toBe(table.HEADERS.length);
    expect(tableOverviewOf(undefined)).toBeUndefined();
  });
});
