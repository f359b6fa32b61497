import { createTestDatabase, type TestDatabase } from '@dc/testing';
import { Pool } from 'pg';
import pino from 'pino';
import { InProcessSearchIndex } from './in-process-search-index';
import { PostgresSearchIndex } from './postgres-search-index';
import { SNAPSHOT_FORMAT } from './memory-snapshot-codec';
import type { RecordDocument, SearchIndex, SearchQuery, SearchResult, SearchViewer } from './search-index';
import { minutesIn, recordDocument, searchIndexContract } from './search-index.contract';

const viewer: SearchViewer = { userId: 'u-1', organisationId: 'o-1' };

/** Records with few words, out of change order and with ties, of several owners, visibilities and projects. */
function syntheticDocs(count: number, seed: number, prefix = 'r'): RecordDocument[] {
  const words = ['river', 'flow', 'data', 'ozone', 'station', 'daily', 'survey', 'water', 'level', 'tide'];
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * random() * words.length)]);
  return Array.from({ length: count }, (_, i) =>
    recordDocument({
      id: `${prefix}-${String(i).padStart(4, '0')}`,
      name: pick(1 + (i % 3)).join(' '),
      description: pick(4).join(' '),
      headers: pick(2),
      words: pick(3),
      ownerId: `u-${i % 7}`,
      organisationId: `o-${i % 5}`,
      visibility: i % 3 === 0 ? 'EV' : i % 11 === 0 ? 'CU' : 'PR',
      sharedWithUserIds: i % 11 === 0 ? ['u-1'] : [],
      groupIds: i % 4 === 0 ? ['g'] : [],
      // Out of change order, with ties, so early termination and tie-breaking are both exercised.
      changedAt: minutesIn(Math.floor(random() * 400)),
    }),
  );
}

/** Every query of the comparisons, at several pages: ranked, tiered, typo, any word, own, project, anonymous. */
function comparedQueries(): SearchQuery[] {
  const queries: Array<Partial<SearchQuery>> = [
    {},
    { text: 'river' },
    { text: 'river flow' },
    { text: 'data' },
    { text: 'daily survey water' },
    { text: 'tide level' },
    { text: 'river', view: 'own' },
    { text: 'flow', groupId: 'g' },
    { view: 'own' },
    { text: 'ozone', viewer: null },
    { viewer: null },
    { text: 'survy' },
    { text: 'stasion levle' },
    // More mistyped names than the count limit: the best of them kept, in several groups of one score.
    { text: 'rivr' },
    { text: 'rivr flow' },
  ];
  return queries.flatMap((extra) =>
    [
      [1, 20],
      [3, 20],
      [2, 45],
      [30, 5],
    ].map(([page, pageSize]): SearchQuery => ({ viewer, view: 'all', page, pageSize, ...extra })),
  );
}

// PostgreSQL's trigram similarity is a float4.
const rounded = (score: number | undefined) => (score === undefined ? score : Math.round(score * 1e6) / 1e6);

/**
 * Both indexes give every compared query the same page: ids, scores, count and whether more follow;
 * the first also when asked with the search-after cursor of its page before (as the `next` link does).
 */
async function expectSameAnswers(mine: SearchIndex, theirs: SearchIndex) {
  const shown = (q: SearchQuery, answer: SearchResult) => ({
    q,
    ids: answer.results.map((hit) => [hit.id, rounded(hit.score)]),
    count: answer.count,
    capped: answer.countCapped,
    more: answer.hasMore,
  });
  for (const q of comparedQueries()) {
    const answers = await Promise.all([mine.search(q), theirs.search(q)]);
    const [a, b] = answers.map((answer) => shown(q, answer));
    expect(a).toEqual(b);
    if (q.page === 1) continue;
    const last = (await mine.search({ ...q, page: q.page - 1 })).results.at(-1);
    if (!last) continue;
    const after = { score: last.score ?? null, changedAt: last.changedAt, id: last.id };
    expect(shown(q, await mine.search({ ...q, after }))).toEqual(b);
  }
}

describe('InProcessSearchIndex', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('dc_search_in_process');
  });
  afterAll(async () => {
    await db?.drop();
  });

  searchIndexContract('in-process', (limits) => new InProcessSearchIndex({ connectionString: db.url, ...limits }));

  describe('kept in step with its store', () => {
    const schema = 'search_step';
    let writer: InProcessSearchIndex;
    let reader: InProcessSearchIndex;
    const names = async (index: InProcessSearchIndex, text?: string) =>
      (await index.search({ text, viewer: null, view: 'all', page: 1, pageSize: 100 })).results.map((hit) => hit.id);

    beforeAll(async () => {
      writer = new InProcessSearchIndex({ connectionString: db.url, schema });
      reader = new InProcessSearchIndex({ connectionString: db.url, schema });
      await writer.init();
      await reader.init();
    });
    afterAll(async () => {
      await Promise.all([writer?.close(), reader?.close()]);
    });

    it("applies another process's upserts, removals and clears before its next search", async () => {
      await writer.upsert([
        recordDocument({ id: 'a', name: 'Kelp forest', changedAt: minutesIn(1) }),
        recordDocument({ id: 'b', name: 'Kelp survey', changedAt: minutesIn(2) }),
      ]);
      expect(await names(reader, 'kelp')).toEqual(['b', 'a']);
      await writer.upsert([recordDocument({ id: 'a', name: 'Coral reef', changedAt: minutesIn(3) })]);
      await writer.remove(['b']);
      expect(await names(reader, 'kelp')).toEqual([]);
      expect(await names(reader, 'coral')).toEqual(['a']);
      // Removed, then written again: the later write wins whatever order the reader applies them in.
      await writer.upsert([recordDocument({ id: 'b', name: 'Kelp again', changedAt: minutesIn(4) })]);
      expect(await names(reader)).toEqual(['b', 'a']);
      await writer.clear();
      await writer.upsert([recordDocument({ id: 'c', name: 'After the clear' })]);
      expect(await names(reader)).toEqual(['c']);
    });

    it("reads a page's documents from the store again only when their record was written since", async () => {
      await writer.upsert([recordDocument({ id: 'd', name: 'Tide gauge', description: 'first', changedAt: minutesIn(5) })]);
      const search = () => reader.search({ text: 'tide gauge', viewer: null, view: 'all', page: 1, pageSize: 10 });
      expect((await search()).results.map((hit) => hit.description)).toEqual(['first']);
      const pool = (reader as unknown as { pool: Pool }).pool;
      const queries = jest.spyOn(pool, 'query');
      try {
        // Kept from the page before: the page's statement asks for no document.
        const again = await search();
        expect(again.results.map((hit) => hit.description)).toEqual(['first']);
        expect(queries).toHaveBeenCalledTimes(1);
        expect((queries.mock.calls[0][0] as unknown as { values: unknown[] }).values).toEqual([[]]);
        // Shared by every search that finds it: frozen, so no caller can change it for the others.
        expect(() => {
          (again.results[0].card as Record<string, unknown>).size = 1;
        }).toThrow(TypeError);
        // Written again by another process (same name, so ranked the same): the new version is read.
        await writer.upsert([recordDocument({ id: 'd', name: 'Tide gauge', description: 'second', changedAt: minutesIn(5) })]);
        expect((await search()).results.map((hit) => hit.description)).toEqual(['second']);
        expect(queries.mock.calls.some((call) => JSON.stringify((call[0] as unknown as { values?: unknown[] }).values) === '[["d"]]')).toBe(true);
      } finally {
        queries.mockRestore();
        await writer.remove(['d']);
      }
    });

    it('loads the index from the store when it starts (a restart)', async () => {
      const restarted = new InProcessSearchIndex({ connectionString: db.url, schema });
      try {
        await restarted.init();
        expect(await names(restarted)).toEqual(await names(reader));
        expect(await restarted.count()).toBe(1);
      } finally {
        await restarted.close();
      }
    });

    it('does not load at init when told not to, and still answers (a script that only clears)', async () => {
      const script = new InProcessSearchIndex({ connectionString: db.url, schema, loadOnInit: false });
      try {
        await script.init();
        expect(await names(script)).toEqual(['c']);
      } finally {
        await script.close();
      }
    });
  });

  /**
   * Early termination must not change any answer: the same pages, counts and scores as the
   * PostgreSQL adapter (which reads every match) on a catalogue written out of change order, with
   * a low count limit so both the fully ranked and the tiered paths are taken, before and after the
   * in-process index rebuilds itself in change order.
   */
  describe('answers as the PostgreSQL adapter does', () => {
    let memory: InProcessSearchIndex;
    let postgres: PostgresSearchIndex;
    const docs = syntheticDocs(1200, 7);

    beforeAll(async () => {
      memory = new InProcessSearchIndex({ connectionString: db.url, schema: 'search_agree', countLimit: 60, rebuildMinOrdinals: 500 });
      postgres = new PostgresSearchIndex({ connectionString: db.url, schema: 'search_agree_pg', countLimit: 60 });
      await Promise.all([memory.init(), postgres.init()]);
      for (let i = 0; i < docs.length; i += 300) {
        await memory.upsert(docs.slice(i, i + 300));
        await postgres.upsert(docs.slice(i, i + 300));
      }
    });
    afterAll(async () => {
      await Promise.all([memory?.close(), postgres?.close()]);
    });

    const compareAll = () => expectSameAnswers(memory, postgres);

    it('on an index written out of change order', async () => {
      await compareAll();
    });

    it('after rebuilding itself in change order', async () => {
      // Replacing a third of the records makes a quarter of the ordinals dead: a rebuild starts.
      await memory.upsert(docs.slice(0, 400));
      await postgres.upsert(docs.slice(0, 400));
      await memory.search({ viewer, view: 'all', page: 1, pageSize: 1 });
      while (memory.isRebuilding) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await memory.search({ viewer, view: 'all', page: 1, pageSize: 1 });
      }
      await compareAll();
    });
  });

  /**
   * A restart from a snapshot answers as a full load of the store does, whatever was written after
   * the snapshot; a snapshot that cannot be trusted is passed over for the full load.
   */
  describe('restarts from a snapshot', () => {
    const schema = 'search_snapshot';
    const docs = syntheticDocs(900, 11);
    const started: InProcessSearchIndex[] = [];
    let sql: Pool;

    /** An index started on the store, its memory loaded; snapshots written only by the first. */
    const start = async (snapshotAfterRows = 0) => {
      const index = new InProcessSearchIndex({ connectionString: db.url, schema, countLimit: 60, snapshotAfterRows });
      started.push(index);
      await index.init();
      await index.search({ viewer, view: 'all', page: 1, pageSize: 1 });
      return index;
    };
    const snapshotSeqs = async () =>
      (await sql.query<{ seq: string }>(`SELECT seq FROM ${schema}.memory_snapshots ORDER BY seq`)).rows.map((row) => Number(row.seq));
    const generation = async () => Number((await sql.query<{ generation: string }>(`SELECT generation FROM ${schema}.memory_state`)).rows[0].generation);
    /** A full load of the store, for comparison: its snapshots passed over meanwhile (of another format). */
    const fullLoad = async () => {
      await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format + 100`);
      try {
        const index = await start();
        expect(index.memoryOrigin).toBe('store');
        return index;
      } finally {
        await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format - 100`);
      }
    };

    beforeAll(async () => {
      sql = new Pool({ connectionString: db.url });
      // pool.end() resolves before its connections have closed; the database's drop may then cut
      // one, and a pool without a listener would throw that as an unhandled error.
      sql.on('error', () => undefined);
      const writer = await start(500);
      for (let i = 0; i < docs.length; i += 300) await writer.upsert(docs.slice(i, i + 300));
      await writer.snapshotWritten();
      expect(writer.memoryOrigin).toBe('store');
    });
    afterAll(async () => {
      await Promise.all(started.map((index) => index.close()));
      await sql?.end();
    });

    it('is written in the background once enough rows were applied, tagged with the writes it includes', async () => {
      // 900 rows in writes of 300: written after the second write (600 rows), not after the third.
      expect(await snapshotSeqs()).toEqual([(await generation()) - 1]);
    });

    it('loads the snapshot and applies the upserts, removals and visibility changes after it, page for page as a full load', async () => {
      const writer = await start();
      const changed = docs
        .slice(0, 120)
        .map((doc, i) =>
          i % 3 === 0
            ? { ...doc, visibility: doc.visibility === 'EV' ? ('PR' as const) : ('EV' as const) }
            : { ...doc, name: `${doc.name} station renamed`, changedAt: minutesIn(500 + i) },
        );
      await writer.upsert(changed);
      await writer.remove(docs.slice(600, 700).map((doc) => doc.id));
      await writer.upsert(syntheticDocs(50, 5, 'new'));
      await writer.remove(['new-0003']);

      const restarted = await start();
      expect(restarted.memoryOrigin).toBe('snapshot');
      expect(await restarted.count()).toBe(docs.length - 100 + 49);
      await expectSameAnswers(restarted, await fullLoad());
      // And keeps applying writes as any index does.
      await writer.remove(['r-0001']);
      expect((await restarted.search({ text: docs[1].name, viewer, view: 'all', page: 1, pageSize: 100 })).results.map((hit) => hit.id)).not.toContain(
        'r-0001',
      );
    });

    it('passes over a snapshot whose bytes were changed', async () => {
      await sql.query(`UPDATE ${schema}.memory_snapshot_chunks SET data = set_byte(data, 20, (get_byte(data, 20) + 1) % 256) WHERE chunk = 0`);
      const index = await start();
      expect(index.memoryOrigin).toBe('store');
      expect(index.lastSnapshotRejection?.message).toMatch(/checksum|decompress/);
      await sql.query(`UPDATE ${schema}.memory_snapshot_chunks SET data = set_byte(data, 20, (get_byte(data, 20) + 255) % 256) WHERE chunk = 0`);
      expect((await start()).memoryOrigin).toBe('snapshot');
    });

    it('passes over a snapshot of another format (the bytes checking their own format number: ranked-memory.spec.ts)', async () => {
      await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format + 1`);
      const index = await start();
      expect(index.memoryOrigin).toBe('store');
      expect(index.lastSnapshotRejection).toBeNull();
      await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format - 1`);
      expect((await start()).memoryOrigin).toBe('snapshot');
    });

    it('writes one of its own format after a full load, though one of another format and the same number is kept', async () => {
      // A snapshot of every write so far, then of another format: the same number as the next one.
      await (await start(1)).snapshotWritten();
      expect(await snapshotSeqs()).toEqual([await generation()]);
      await sql.query(`UPDATE ${schema}.memory_snapshots SET format = format + 1`);
      const index = await start(1);
      expect(index.memoryOrigin).toBe('store');
      await index.snapshotWritten();
      expect((await sql.query(`SELECT format FROM ${schema}.memory_snapshots`)).rows).toEqual([{ format: SNAPSHOT_FORMAT }]);
      expect((await start()).memoryOrigin).toBe('snapshot');
    });

    it('is deleted by a clear (reindex), and one committed after a clear is never loaded', async () => {
      const writer = await start(1);
      await writer.upsert(docs.slice(0, 10));
      // The snapshot of the load was being written: the next catch-up writes one of the upsert.
      await writer.snapshotWritten();
      await writer.search({ viewer, view: 'all', page: 1, pageSize: 1 });
      await writer.snapshotWritten();
      expect(await snapshotSeqs()).toEqual([await generation()]);
      await sql.query(
        `CREATE TABLE ${schema}.before_clear AS SELECT * FROM ${schema}.memory_snapshots; CREATE TABLE ${schema}.before_clear_chunks AS SELECT * FROM ${schema}.memory_snapshot_chunks`,
      );
      await writer.clear();
      expect(await snapshotSeqs()).toEqual([]);
      await sql.query(
        `INSERT INTO ${schema}.memory_snapshots SELECT * FROM ${schema}.before_clear; INSERT INTO ${schema}.memory_snapshot_chunks SELECT * FROM ${schema}.before_clear_chunks`,
      );
      const restarted = await start();
      expect(restarted.memoryOrigin).toBe('store');
      expect(await restarted.search({ viewer, view: 'all', page: 1, pageSize: 10 })).toMatchObject({ count: 0 });
    });
  });
  describe('failures of its background work', () => {
    const schema = 'search_failing';
    let sql: Pool;
    beforeAll(() => {
      sql = new Pool({ connectionString: db.url });
      sql.on('error', () => undefined);
    });
    afterAll(() => sql?.end());

    it('logs a failing snapshot write and shows it in backgroundFailures() until a snapshot is written again', async () => {
      const logged: Array<Record<string, unknown>> = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
      const index = new InProcessSearchIndex({ connectionString: db.url, schema, snapshotAfterRows: 1, logger });
      try {
        await index.init();
        // The store refuses snapshots from now on, as a full disk would.
        await sql.query(
          `CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no space left for the snapshot'; END $$`,
        );
        await sql.query(`CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.memory_snapshots FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse()`);
        await index.upsert([recordDocument({ id: 'a', name: 'Kelp forest' })]);
        await index.snapshotWritten();
        expect(index.backgroundFailures()).toEqual([{ task: 'snapshot', at: expect.any(String), message: 'no space left for the snapshot' }]);
        expect(logged).toContainEqual(
          expect.objectContaining({
            level: 50,
            component: 'in-process-search-index',
            task: 'snapshot',
            err: expect.objectContaining({ message: 'no space left for the snapshot' }),
          }),
        );
        // Searches go on meanwhile.
        expect((await index.search({ text: 'kelp', viewer: null, view: 'all', page: 1, pageSize: 10 })).results.map((hit) => hit.id)).toEqual(['a']);

        await sql.query(`DROP TRIGGER refuse ON ${schema}.memory_snapshots`);
        await index.upsert([recordDocument({ id: 'b', name: 'Kelp survey' })]);
        await index.snapshotWritten();
        expect(index.backgroundFailures()).toEqual([]);
        expect((await sql.query(`SELECT seq FROM ${schema}.memory_snapshots`)).rows).toHaveLength(1);
      } finally {
        await index.close();
      }
    });
  });
});
