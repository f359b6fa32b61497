import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'pg';
import { describeAggregatedTable, extractMetadata, type ExtractionResult, type PrivateColumns } from '@dc/extraction';
import { createTestDatabase, createTestMysqlDatabase, describeInfra, TEST_MYSQL, type TestDatabase, type TestMysqlDatabase } from '@dc/testing';
import { DATASETS } from '../../testing/catalogue-test-app';
import { loadCsvIntoMysql, loadCsvIntoPostgres } from '../../testing/sql-fixtures';
import { MysqlSqlDatabases } from './mysql-sql-database';
import { PostgresSqlDatabases } from './postgres-sql-database';
import type { SqlSession } from './sql-database';

/** Real datasets: numbers, quoted text with commas, a semicolon file with categorical words. */
const TABLES: Record<string, string> = {
  gdp: 'csv/gdp.csv',
  co2: 'csv/co2-annmean-gl.csv',
  sp500: 'csv/sp500-constituents.csv',
  bank: 'csv/bank-marketing.csv',
};
const LINKAGE_KEY = new Uint8Array(32).fill(5);

/** The catalogue's own extraction of the same data uploaded as a CSV: the reference. */
function extractCsv(relative: string, privateColumns?: PrivateColumns): Promise<ExtractionResult> {
  return extractMetadata(
    { stream: Readable.from([readFileSync(path.join(DATASETS, relative))]), fileName: path.basename(relative) },
    { extractOption: 'metadata', privateColumns },
  );
}

/** META without what differs by nature between a file and a table (name, type, date, CSV facts), floats rounded. */
function comparable(meta: ExtractionResult) {
  const round = (x: number | null) => (x === null ? null : Number(x.toPrecision(10)));
  const stats = Object.fromEntries(
    // Aggregate queries give no distribution (HISTOGRAM, QUARTILES, TOP_VALUES): an upload's are left out of the comparison.
    Object.entries(meta.FILE!.STATS).map(([i, { HISTOGRAM: _h, QUARTILES: _q, TOP_VALUES: _t, ...s }]) => [
      i,
      { ...s, MIN: round(s.MIN), MAX: round(s.MAX), MEAN: round(s.MEAN), STD: round(s.STD) },
    ]),
  );
  return {
    HEADERS: meta.FILE!.HEADERS,
    TOTAL_ROWS: meta.FILE!.TOTAL_ROWS,
    STATS: stats,
    KEYWORDS: meta.KEYWORDS,
    SHARE_FORMATS: meta.SHARE_FORMATS,
    ENCRYPTED_COLS: meta.ENCRYPTED_COLS,
    LINKAGE_KEY_ID: meta.LINKAGE_KEY_ID,
    ERRORS: meta.ERRORS,
  };
}

function describeTables(label: string, open: () => Promise<SqlSession>) {
  let session: SqlSession;
  beforeAll(async () => {
    session = await open();
  });
  afterAll(async () => {
    await session?.close();
  });

  it.each(Object.entries(TABLES))(`${label}: the table %s has the statistics of the same data uploaded as CSV`, async (table, relative) => {
    const source = (await session.tableSource(table))!;
    const fromTable = await describeAggregatedTable({ name: table, source }, { extractOption: 'metadata' });
    expect(fromTable).toMatchObject({ NAME: table, TYPE: 'table', STATUS: 'complete', SAMPLES: 'synthetic' });
    expect(comparable(fromTable)).toEqual(comparable(await extractCsv(relative)));
  });

  it(`${label}: hashed, masked and excluded columns as an upload's, keyed with the linkage key`, async () => {
    const privateColumns: PrivateColumns = {
      hash: ['Symbol'],
      formats: [
        { column: 'Security', format: 'mask' },
        { column: 'CIK', format: 'exclude' },
      ],
      linkageKey: LINKAGE_KEY,
    };
    const source = (await session.tableSource('sp500'))!;
    const fromTable = await describeAggregatedTable({ name: 'sp500', source }, { extractOption: 'metadata', privateColumns });
    expect(comparable(fromTable)).toEqual(comparable(await extractCsv(TABLES.sp500, privateColumns)));
    expect(fromTable.ENCRYPTED_COLS).toEqual(['Symbol']);
    expect(JSON.stringify(fromTable)).not.toMatch(/"MMM"|3M Company|"CIK"/);
  });

  it(`${label}: real samples with extractOption samples, hashed for a hashed column`, async () => {
    const source = (await session.tableSource('co2'))!;
    const meta = await describeAggregatedTable(
      { name: 'co2', source },
      { extractOption: 'samples', privateColumns: { hash: ['Year'], linkageKey: LINKAGE_KEY } },
    );
    const csv = await extractCsv(TABLES.co2, { hash: ['Year'], linkageKey: LINKAGE_KEY });
    const years = new Set(
      (
        await extractMetadata(
          { stream: Readable.from([readFileSync(path.join(DATASETS, TABLES.co2))]), fileName: 'co2.csv' },
          { extractOption: 'samples', limits: { maxSamples: 1000 }, privateColumns: { hash: ['Year'], linkageKey: LINKAGE_KEY } },
        )
      ).FILE!.STATS['0'].SAMPLE_VALS,
    );
    expect(meta.FILE!.STATS['0'].SAMPLE_VALS).toHaveLength(10);
    for (const hash of meta.FILE!.STATS['0'].SAMPLE_VALS) expect(years.has(hash)).toBe(true);
    expect(meta.FILE!.STATS['0'].FORMATTED_VALS).toEqual(csv.FILE!.STATS['0'].FORMATTED_VALS);
    const means = readFileSync(path.join(DATASETS, TABLES.co2), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[1]);
    for (const sample of meta.FILE!.STATS['1'].SAMPLE_VALS) expect(means).toContain(sample);
  });

  it(`${label}: lists tables with their columns, previews 10 rows, and knows no table outside the listing`, async () => {
    const tables = await session.tables();
    expect(tables.map((t) => t.name).sort()).toEqual([...Object.keys(TABLES), 'x"; drop table y; --', 'x`; drop table y; --'].sort());
    expect(tables.find((t) => t.name === 'co2')!.columns.map((c) => c.name)).toEqual(['Year', 'Mean', 'Uncertainty']);
    const preview = (await session.preview('co2', 10))!;
    expect(preview).toMatchObject({ HEADERS: ['Year', 'Mean', 'Uncertainty'], TOTAL_ROWS: 47 });
    expect(preview.RAW).toHaveLength(10);
    expect(preview.RAW[0]).toEqual(readFileSync(path.join(DATASETS, TABLES.co2), 'utf8').split('\n')[1].trim().split(','));
    expect(await session.preview('nope', 10)).toBeNull();
    expect(await session.tableSource('co2; DROP TABLE gdp')).toBeNull();
    // Hostile names are just names: quoted, they describe their own rows.
    for (const name of ['x"; drop table y; --', 'x`; drop table y; --']) {
      const meta = await describeAggregatedTable({ name, source: (await session.tableSource(name))! }, { extractOption: 'metadata' });
      expect(meta.FILE).toMatchObject({ HEADERS: ['a"b`c'], TOTAL_ROWS: 2 });
    }
    expect((await session.tables()).length).toBe(6);
  });

  it(`${label}: the session is read-only`, async () => {
    const source = (await session.tableSource('co2'))!;
    // A write smuggled in would fail; here the session itself refuses writes.
    await expect((source as unknown as { query: (sql: string) => Promise<unknown> }).query('DELETE FROM co2')).rejects.toThrow();
    expect((await session.preview('co2', 1))!.TOTAL_ROWS).toBe(47);
  });
}

describeInfra('SQL tables described by aggregate queries (real MariaDB and PostgreSQL, real datasets)', true, () => {
  jest.setTimeout(120_000);

  describe('MariaDB', () => {
    let db: TestMysqlDatabase;
    beforeAll(async () => {
      db = await createTestMysqlDatabase('dc_sql_source');
      for (const [table, relative] of Object.entries(TABLES)) await loadCsvIntoMysql(db.connection, table, relative);
      for (const name of ['x"; drop table y; --', 'x`; drop table y; --']) {
        await db.connection.query(
          `CREATE TABLE \`${name.replace(/`/g, '``')}\` (\`a"b\`\`c\` TEXT); INSERT INTO \`${name.replace(/`/g, '``')}\` VALUES ('one'), ('two')`,
        );
      }
    });
    afterAll(() => db?.drop());
    describeTables('MariaDB', () =>
      new MysqlSqlDatabases().open({
        sqltype: 'mysql',
        address: TEST_MYSQL.host,
        port: TEST_MYSQL.port,
        database: db.name,
        username: TEST_MYSQL.user,
        password: TEST_MYSQL.password,
      }),
    );
  });

  describe('PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase('dc_sql_source');
      const client = new Client({ connectionString: db.url });
      await client.connect();
      for (const [table, relative] of Object.entries(TABLES)) await loadCsvIntoPostgres(client, table, relative);
      for (const name of ['x"; drop table y; --', 'x`; drop table y; --']) {
        const q = `"${name.replace(/"/g, '""')}"`;
        await client.query(`CREATE TABLE ${q} ("a""b\`c" text); INSERT INTO ${q} VALUES ('one'), ('two')`);
      }
      await client.end();
    });
    afterAll(() => db?.drop());
    describeTables('PostgreSQL', () => {
      const url = new URL(db.url);
      return new PostgresSqlDatabases().open({
        sqltype: 'postgresql',
        address: url.hostname,
        port: Number(url.port),
        database: db.name,
        username: url.username,
        password: '',
      });
    });
  });
});
