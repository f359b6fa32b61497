import { Client } from 'pg';
import { SearchIndex, type RecordDocument } from '@dc/search-index';
import { createTestDatabase, describeInfra, eventually, ServiceTestApp, type TestDatabase } from '@dc/testing';
import { SearchModule } from './search.module';

/** A record both suites index. */
const kelp: RecordDocument = {
  id: 'r-1',
  name: 'Kelp forest',
  description: '',
  headers: [],
  words: [],
  ownerId: 'u-1',
  organisationId: 'o-1',
  visibility: 'EV',
  sharedWithUserIds: [],
  sharedWithOrganisationIds: [],
  groupIds: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  changedAt: '2026-01-01T00:00:00.000Z',
  card: {},
};

/**
 * The in-process index's health through the service as it runs: a snapshot write the store refuses
 * is logged through the platform logger and shown by /health/ready until it succeeds; and during a
 * restart the service reports not ready (503, with the reason) until the index has loaded its memory,
 * so a load balancer sends searches to the replicas already loaded, while liveness stays up. Each
 * test has a database of its own.
 */
describeInfra('search service: health of the in-process index (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let sql: Client;
  const started: ServiceTestApp[] = [];
  const logs: string[] = [];

  const start = async () => {
    const app = await ServiceTestApp.start({ service: 'search', modules: [SearchModule], databaseUrl: db.url, env: { SEARCH_DRIVER: 'in-process' }, logs });
    started.push(app);
    return app;
  };
  const logged = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeEach(async () => {
    db = await createTestDatabase('dc_search_health');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterEach(async () => {
    for (const app of started.splice(0)) await app.stop();
    await sql?.end();
    await db?.drop();
  });

  it('logs a refused snapshot write and reports it on /health/ready as degraded, staying ready', async () => {
    // A store holding a record: the next start loads it in full and writes a snapshot at once.
    const first = await start();
    await first.get(SearchIndex).upsert([kelp]);
    await first.stop();
    started.pop();
    await sql.query(`CREATE FUNCTION search.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no space left for the snapshot'; END $$`);
    await sql.query('CREATE TRIGGER refuse BEFORE INSERT ON search.memory_snapshots FOR EACH ROW EXECUTE FUNCTION search.refuse()');

    const app = await start();
    // Wait for the state a supervisor sees: the failure reported, searches still served.
    const ready = await eventually(async () => {
      const answer = await app.http().get('/health/ready');
      expect(answer.body.checks['search-index-background']).toMatch(/^degraded: snapshot failed at \S+: no space left for the snapshot$/);
      return answer;
    });
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.checks['search-index-in-process']).toBe('up');
    expect(logged()).toContainEqual(
      expect.objectContaining({
        level: 50,
        service: 'search-test',
        task: 'snapshot',
        err: expect.objectContaining({ message: 'no space left for the snapshot' }),
      }),
    );
  });

  // The load is held by a lock on the snapshot table taken in PostgreSQL (the index's real read waits on it).
  it('answers 503 with "loading" on /health/ready while the index loads, stays live, and is ready once searches answer from it', async () => {
    const first = await start();
    await first.get(SearchIndex).upsert([kelp]);
    await first.stop();
    started.pop();

    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE search.memory_snapshots IN ACCESS EXCLUSIVE MODE');
      const app = await start();
      // The restarted index reads its snapshot table first: it waits there while the lock is held.
      await eventually(async () => {
        const { rows } = await sql.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = to_regclass('search.memory_snapshots')`);
        expect(rows).toHaveLength(1);
      });
      const loading = await app.http().get('/health/ready');
      expect(loading.status).toBe(503);
      expect(loading.body.status).toBe('unavailable');
      expect(loading.body.checks['search-index-in-process']).toBe('down: search index loading from its snapshot');
      expect((await app.http().get('/health/live')).status).toBe(200);

      await holder.query('COMMIT');
      const ready = await eventually(async () => {
        const answer = await app.http().get('/health/ready');
        expect(answer.status).toBe(200);
        return answer;
      });
      expect(ready.body.checks['search-index-in-process']).toBe('up');
      const found = await app.get(SearchIndex).search({ text: 'kelp', viewer: null, view: 'all', page: 1, pageSize: 10 });
      expect(found.results.map((hit) => hit.id)).toEqual(['r-1']);
    } finally {
      await holder.end();
    }
  });
});
