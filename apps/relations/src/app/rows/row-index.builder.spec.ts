import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TableSketchPayload } from '@dc/contracts';
import { type CellValue, extractMetadata, normalisedValue, SketchCollector, type TableObserverFactory, valueHash } from '@dc/extraction';
import { FsObjectStorage, SignedLinkSigner } from '@dc/storage';
import { DATASETS } from '@dc/testing';
import { decodeColumn, plannedColumns, sourcePositions } from './row-index';
import { ColumnHasher, RowIndexBuilder } from './row-index.builder';

/** Cells the byte reader and the text reader must hash alike, and rows of every width. */
const TRICKY_CSV = [
  'code,amount,label,flag,note',
  'A1,1.50,Alpha,true,plain',
  ' a1 ,1.5,ALPHA ,FALSE,"quoted, with comma"',
  'b2,-0,beta,,"café au lait"',
  'B2,1e3,Beta Gamma,yes,',
  'c3,0.10,NA,no',
  'c3,007,,',
  'd4,"2,5",delta,true,extra,cells,here',
  'e5,1000000000000000000000,Ωmega,1,last',
  'f6',
].join('\n');

/** Each planned column's hashes as the row path makes them: normalisedValue of every cell, row by row. */
async function hashesByRows(file: string, tables: TableSketchPayload[]): Promise<Map<string, number[]>> {
  const planned = plannedColumns(tables);
  const byColumn = new Map<string, number[]>();
  let table = 0;
  const rowsOnly: TableObserverFactory = {
    openTable: (name, headers, policies) => {
      const mine = planned.filter((c) => c.table === table && c.tableName === name);
      table++;
      const positions = sourcePositions(mine, headers);
      const lists = mine.map((c) => {
        const list: number[] = [];
        byColumn.set(`${c.table}/${c.column}`, list);
        return list;
      });
      return {
        addRow: (cells: ArrayLike<CellValue>) =>
          positions.forEach((source, i) => {
            const text = source >= 0 && source < cells.length ? normalisedValue(cells[source], policies[source]) : null;
            lists[i].push(text === null ? 0 : valueHash(text) || 1);
          }),
        finish: () => undefined,
      };
    },
  };
  await extractMetadata({ stream: createReadStream(file), fileName: path.basename(file) }, { extractOption: 'metadata', sketches: rowsOnly });
  return byColumn;
}

describe('RowIndexBuilder', () => {
  let dir: string;
  let storage: FsObjectStorage;
  let builder: RowIndexBuilder;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dc-row-index-spec-'));
    storage = new FsObjectStorage({
      rootDir: path.join(dir, 'objects'),
      publicBaseUrl: 'http://localhost',
      signer: new SignedLinkSigner('row-index-spec-secret-0123456789'),
    });
    builder = new RowIndexBuilder(storage);
    await writeFile(path.join(dir, 'tricky.csv'), TRICKY_CSV);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  afterEach(() => jest.restoreAllMocks());

  const files = [
    path.join('tricky', 'tricky.csv'),
    ...['AirQualityUCI.csv', 'bank-marketing.csv', 'btw25-bw-kreise.csv', 'gdp.csv', 'sp500-constituents.csv', 'unemployment.tsv'].map((name) =>
      path.join('csv', name),
    ),
  ];

  it.each(files)('hashes the cells of %s read as bytes exactly as the row path hashes them as text', async (name) => {
    const file = name.startsWith('tricky') ? path.join(dir, 'tricky.csv') : path.join(DATASETS, name);
    const sketches = new SketchCollector();
    await extractMetadata({ stream: createReadStream(file), fileName: path.basename(file) }, { extractOption: 'metadata', sketches });
    const tables = sketches.tables as TableSketchPayload[];
    const storageKey = `files/${path.basename(file)}`;
    await storage.put(storageKey, Readable.from([await readFile(file)]));
    const fromBytes = jest.spyOn(ColumnHasher.prototype, 'addReadAscii');

    const build = await builder.build({ fileId: 'f', fileName: path.basename(file), storageKey, tables, sketchedAt: new Date() });

    const expected = await hashesByRows(file, tables);
    expect(build.columns.length).toBe(expected.size);
    expect(build.columns.length).toBeGreaterThan(0);
    for (const column of build.columns) {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.get(column.key)) chunks.push(chunk as Buffer);
      const hashes = [...decodeColumn(Buffer.concat(chunks))];
      expect({ header: column.header, hashes }).toEqual({ header: column.header, hashes: expected.get(`${column.table}/${column.column}`) });
      expect(column.rows).toBe(sketches.tables[column.table].totalRows);
    }
    // The byte path was taken (these files' cells are mostly ASCII).
    expect(fromBytes).toHaveBeenCalled();
  });
});
