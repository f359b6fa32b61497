import { createTestDatabase, type TestDatabase } from '@dc/testing';
import { InProcessSearchIndex } from './in-process-search-index';
import { PostgresSearchIndex } from './postgres-search-index';
import type { RecordDocument, SearchQuery, SearchViewer } from './search-index';
import { minutesIn, recordDocument, searchIndexContract } from './search-index.contract';

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
    const names = async (index: InProcessSearchIndex, text?: string) => (await index.search({ text, viewer: null, view: 'all', page: 1, pageSize: 100 })).results.map((hit) => hit.id);

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
      await writer.upsert([recordDocument({ id: 'a', name: 'Kelp forest', changedAt: minutesIn(1) }), recordDocument({ id: 'b', name: 'Kelp survey', changedAt: minutesIn(2) })]);
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
    const viewer: SearchViewer = { userId: 'u-1', organisationId: 'o-1' };
    const words = ['river', 'flow', 'data', 'ozone', 'station', 'daily', 'survey', 'water', 'level', 'tide'];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * random() * words.length)]);
    const docs: RecordDocument[] = Array.from({ length: 1200 }, (_, i) =>
      recordDocument({
        id: `r-${String(i).padStart(4, '0')}`,
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
    ];

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

    // PostgreSQL's trigram similarity is a float4.
    const rounded = (score: number | undefined) => (score === undefined ? score : Math.round(score * 1e6) / 1e6);
    const compareAll = async () => {
      for (const extra of queries) {
        for (const [page, pageSize] of [[1, 20], [3, 20], [2, 45], [30, 5]]) {
          const q: SearchQuery = { viewer, view: 'all', page, pageSize, ...extra };
          const [mine, theirs] = await Promise.all([memory.search(q), postgres.search(q)]);
          expect({ q, ids: mine.results.map((hit) => [hit.id, rounded(hit.score)]), count: mine.count, capped: mine.countCapped, more: mine.hasMore }).toEqual({
            q,
            ids: theirs.results.map((hit) => [hit.id, rounded(hit.score)]),
            count: theirs.count,
            capped: theirs.countCapped,
            more: theirs.hasMore,
          });
        }
      }
    };

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
});
