import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { normalisedValue, valueHash } from '@dc/extraction';
import { listAll, ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, DocumentedAnswers, type TestDatabase } from '@dc/testing';
import { caller, type Caller, DATASETS, type IndexedRecord, RelationsTestApp } from '../../testing/relations-test-app';
import { decodeColumn, rowIndexKey, rowIndexPrefix } from './row-index';
import { RowIndexes } from './row-indexes';

const owner = caller('owner', randomUUID(), [2, 3]);

/** A numeric column of a dataset, read here by hand. */
function column(dataset: string, header: string): number[] {
  const [head, ...lines] = readFileSync(path.join(DATASETS, dataset), 'utf8').trim().split(/\r?\n/);
  // Counted from the end: country names hold quoted commas ("Korea, Rep."), the numbers never do.
  const fromEnd = head.split(',').indexOf(header) - head.split(',').length;
  return lines.map((line) => Number(line.split(',').at(fromEnd)));
}

/** The row-hash index of stored files, as relations builds, reads and drops it (real PostgreSQL, fs storage). */
describeInfra('row-hash index on the real datasets (PostgreSQL, fs storage)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let relations: RelationsTestApp;
  const headers = new Map<Caller, { Authorization: string }>();
  let co2Global: IndexedRecord;

  /** Every answer of this suite is also checked against docs/openapi.json (asserted last). */
  const documented = new DocumentedAnswers();
  const get = (url: string, who: Caller = owner) => documented.checking('get', url, relations.http().get(url).set(headers.get(who)!));
  const pairUrl = (relation: string, a: IndexedRecord, b: IndexedRecord) => `/api/relations/${relation}/?record1=${a.id}&record2=${b.id}`;

  beforeAll(async () => {
    db = await createTestDatabase('dc_relations_row_index');
    relations = await RelationsTestApp.start(db.url);
    headers.set(owner, await relations.auth(owner));
    co2Global = await relations.index(owner, 'csv/co2-annmean-gl.csv', { visibility: 'EV' });
  });

  afterAll(async () => {
    await relations?.close();
    await db?.drop();
  });

  const readyBuild = async (record: IndexedRecord) => {
    await relations.until(`SELECT 1 FROM relations.row_indexes WHERE file_id = $1 AND status = 'ready'`, [record.fileId]);
    const [build] = await relations.sql<{ build_id: string; columns: Array<{ header: string; key: string; rows: number }> }>(
      `SELECT build_id, columns FROM relations.row_indexes WHERE file_id = $1 AND status = 'ready'`,
      [record.fileId],
    );
    return build;
  };
  const storage = () => relations.app.get(ObjectStorage);
  const objectHashes = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().get(key)) chunks.push(chunk as Buffer);
    return [...decodeColumn(Buffer.concat(chunks))];
  };

  it('is built in the background from each stored file: one value hash per row and column', async () => {
    const build = await readyBuild(co2Global);
    expect(build.columns.map((c) => [c.header, c.rows])).toEqual([
      ['Year', 47],
      ['Mean', 47],
      ['Uncertainty', 47],
    ]);
    const years = column('csv/co2-annmean-gl.csv', 'Year');
    expect(await objectHashes(build.columns[0].key)).toEqual(years.map((year) => valueHash(normalisedValue(String(year))!)));
    expect((await listAll(storage(), `relations/row-index/${co2Global.fileId}/`)).sort()).toEqual(build.columns.map((c) => c.key).sort());
  });

  it('links rows from the index alone, without parsing the file again', async () => {
    const [left, right] = [await relations.index(owner, 'csv/co2-annmean-gl.csv'), await relations.index(owner, 'csv/co2-annmean-mlo.csv')];
    // Asked before the background builder got to them, the call builds both indexes itself.
    const first = (await get(pairUrl('linkability', left, right))).body;
    expect(first).toMatchObject({ estimated: false, tot_rows: { left: 47, right: 67 } });
    expect(first.matches.find((m: { column_left: string }) => m.column_left === 'Year').total_matches).toBe(47);
    // The stored files go away behind relations' back: only the indexes can answer now.
    await storage().delete(`catalogue/files/${left.fileId}`);
    await storage().delete(`catalogue/files/${right.fileId}`);
    expect((await get(pairUrl('linkability', left, right))).body).toEqual(first);
  });

  it('holds value hashes of hashed columns as stored and nothing of masked ones', async () => {
    const hashed = await relations.index(owner, 'csv/co2-annmean-mlo.csv', { hash: ['Year'], mask: ['Mean', 'Uncertainty'] });
    const build = await readyBuild(hashed);
    expect(build.columns.map((c) => c.header)).toEqual(['Year']);
    const stored = await objectHashes(build.columns[0].key);
    // A server-hashed upload stores its cells as sent and the product keeps no linkage key
    // (docs/private-linkage.md): the index holds 32-bit hashes of the stored cells, one per row.
    const cells = column('csv/co2-annmean-mlo.csv', 'Year').map((year) => valueHash(normalisedValue(String(year))!));
    expect(stored).toEqual(cells);
  });

  it('deletes the objects of a build whose process died mid-build, once it is stale, and leaves running builds alone', async () => {
    const rowIndexes = relations.app.get(RowIndexes);
    const record = await relations.index(owner, 'csv/co2-annmean-gl.csv');
    await readyBuild(record);
    // A build killed after storing one object (its building row written first, as the builder does).
    const killed = randomUUID();
    const running = randomUUID();
    for (const buildId of [killed, running]) {
      await relations.sql(`INSERT INTO relations.row_indexes (build_id, file_id, status, built_at) VALUES ($1, $2, 'building', now() - $3::interval)`, [
        buildId,
        record.fileId,
        buildId === killed ? '7 hours' : '1 minute',
      ]);
      await storage().put(rowIndexKey(record.fileId, buildId, 0, 0), Readable.from([Buffer.alloc(8)]));
    }
    expect(await rowIndexes.dropStaleBuilds()).toBe(1);
    await relations.until('SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM relations.row_indexes WHERE build_id = $1)', [killed]);
    expect(await listAll(storage(), rowIndexPrefix(record.fileId, killed))).toEqual([]);
    // The one still within its time, and the file's ready build, keep their objects.
    expect(await listAll(storage(), rowIndexPrefix(record.fileId, running))).toHaveLength(1);
    expect((await readyBuild(record)).columns).toHaveLength(3);
    expect(await rowIndexes.dropStaleBuilds()).toBe(0);
  });

  it('is dropped with its record: the builds and their objects go', async () => {
    const doomed = await relations.index(owner, 'csv/unemployment.tsv');
    await readyBuild(doomed);
    await relations.remove(doomed);
    await relations.until('SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM relations.row_indexes WHERE file_id = $1)', [doomed.fileId]);
    expect(await listAll(storage(), `relations/row-index/${doomed.fileId}/`)).toEqual([]);
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
