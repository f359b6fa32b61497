import { createTestDatabase, eventually, type TestDatabase } from '@dc/testing';
import { Pool, type PoolClient } from 'pg';
import { InProcessSearchIndex } from './in-process-search-index';
import { recordDocument } from './search-index-contract-support';

/**
 * Readiness of the in-process index while it loads its memory at start (issue 26): not ready, with
 * what it is doing, until the memory is loaded and has applied the writes since its snapshot; then
 * ready, and searches answer from it. The load is held at each step by a table lock taken in
 * PostgreSQL (the store's real queries wait on it), and the test waits for states, never for time.
 */
describe('InProcessSearchIndex readiness while it loads', () => {
  const schema = 'search_ready';
  let db: TestDatabase;
  let sql: Pool;
  const indexes: InProcessSearchIndex[] = [];
  const kelp = (id: string) => recordDocument({ id, name: `Kelp forest ${id}` });
  const kelpIds = async (index: InProcessSearchIndex) =>
    (await index.search({ text: 'kelp', viewer: null, view: 'all', page: 1, pageSize: 100 })).results.map((hit) => hit.id).sort();
  const start = async () => {
    const index = new InProcessSearchIndex({ connectionString: db.url, schema, snapshotAfterRows: 0 });
    indexes.push(index);
    await index.init();
    return index;
  };

  /** A transaction holding an exclusive lock on the table until `release()`. */
  const lock = async (table: string) => {
    const client: PoolClient = await sql.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${schema}.${table} IN ACCESS EXCLUSIVE MODE`);
    return {
      release: async () => {
        await client.query('COMMIT');
        client.release();
      },
    };
  };
  /** Server processes of the index waiting for the lock on the table. */
  const waitingFor = async (table: string) =>
    (await sql.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE NOT granted AND relation = to_regclass($1)`, [`${schema}.${table}`])).rows.map(
      (row) => row.pid,
    );

  beforeAll(async () => {
    db = await createTestDatabase('dc_search_in_process_ready');
    sql = new Pool({ connectionString: db.url });
    sql.on('error', () => undefined);
    // A snapshot of two records, then a third written after it.
    const writer = new InProcessSearchIndex({ connectionString: db.url, schema, snapshotAfterRows: 1 });
    indexes.push(writer);
    await writer.init();
    await writer.upsert([kelp('a'), kelp('b')]);
    await writer.snapshotWritten();
    expect(Number((await sql.query(`SELECT count(*) FROM ${schema}.memory_snapshots`)).rows[0].count)).toBe(1);
    const late = await start();
    await late.upsert([kelp('c')]);
  });
  afterAll(async () => {
    await Promise.all(indexes.map((index) => index.close()));
    await sql?.end();
    await db?.drop();
  });

  it('is not ready while it reads its snapshot and applies the writes since, tries a failed load again, and then answers', async () => {
    const snapshots = await lock('memory_snapshots');
    let records: { release(): Promise<void> } | null = null;
    try {
      const index = await start();
      await eventually(async () => expect(await waitingFor('memory_snapshots')).toHaveLength(1));
      expect(index.notReady()).toBe('search index loading from its snapshot');

      // The snapshot read, the writes after it wait.
      records = await lock('memory_records');
      await snapshots.release();
      const [reader] = await eventually(async () => {
        const waiting = await waitingFor('memory_records');
        expect(waiting).toHaveLength(1);
        return waiting;
      });
      expect(index.notReady()).toBe('search index applying the writes made since its snapshot');

      // A load cut off (its connection ended): reported, and tried again by itself (nothing else asks here).
      await sql.query('SELECT pg_terminate_backend($1)', [reader]);
      await eventually(async () => expect(index.notReady()).toMatch(/^search index loading failed \(.*terminat.*\), trying again$/));
      await eventually(async () => expect(await waitingFor('memory_records')).toHaveLength(1));
      // A search sent meanwhile waits for the memory, and answers from it once loaded.
      const searched = kelpIds(index);

      await records.release();
      records = null;
      expect(await searched).toEqual(['a', 'b', 'c']);
      expect(index.notReady()).toBeNull();
      expect(index.memoryOrigin).toBe('snapshot');
      expect(await kelpIds(index)).toEqual(['a', 'b', 'c']);
    } finally {
      await snapshots.release().catch(() => undefined);
      await records?.release();
    }
  });

  it('says when it loads every record of the store instead (no usable snapshot)', async () => {
    await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format + 100`);
    // Held at the snapshot first: the store's tables are locked by init() too, so not before it.
    const snapshots = await lock('memory_snapshots');
    let records: { release(): Promise<void> } | null = null;
    let index: InProcessSearchIndex;
    try {
      index = await start();
      await eventually(async () => expect(await waitingFor('memory_snapshots')).toHaveLength(1));
      records = await lock('memory_records');
      await snapshots.release();
      await eventually(async () => expect(await waitingFor('memory_records')).toHaveLength(1));
      expect(index.notReady()).toBe('search index loading every record of the store (no usable snapshot)');
    } finally {
      await snapshots.release().catch(() => undefined);
      await records?.release();
      await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format - 100`);
    }
    expect(await kelpIds(index)).toEqual(['a', 'b', 'c']);
    expect(index.notReady()).toBeNull();
    expect(index.memoryOrigin).toBe('store');
  });

  it('is not ready when told to load at the first search, until that search', async () => {
    const index = new InProcessSearchIndex({ connectionString: db.url, schema, loadOnInit: false, snapshotAfterRows: 0 });
    indexes.push(index);
    await index.init();
    expect(index.notReady()).toBe('search index not loaded: it loads at the first search');
    expect(await kelpIds(index)).toEqual(['a', 'b', 'c']);
    expect(index.notReady()).toBeNull();
  });

  it("collects the load's garbage once, before it reports ready, when the process exposes gc (npm start's --expose-gc)", async () => {
    const exposed = globalThis as { gc?: () => void };
    const before = exposed.gc;
    const readinessAtCollections: Array<string | null> = [];
    let index: InProcessSearchIndex | null = null;
    exposed.gc = () => readinessAtCollections.push(index?.notReady() ?? 'not started');
    try {
      index = new InProcessSearchIndex({ connectionString: db.url, schema, loadOnInit: false, snapshotAfterRows: 0 });
      indexes.push(index);
      await index.init();
      expect(await kelpIds(index)).toEqual(['a', 'b', 'c']);
      // The collection ran while the index still reported itself loading; later syncs collect nothing.
      expect(readinessAtCollections).toEqual([expect.stringMatching(/^search index /)]);
      await index.upsert([kelp('d')]);
      expect(await kelpIds(index)).toEqual(['a', 'b', 'c', 'd']);
      expect(readinessAtCollections).toHaveLength(1);
      await index.remove(['d']);
    } finally {
      exposed.gc = before;
    }
  });
});
