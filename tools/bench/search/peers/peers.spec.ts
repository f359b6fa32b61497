import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordDocument, SearchQuery, SearchViewer } from '@dc/search-index';
import { mayView, trigramSimilarity, type PeerEngine } from './engine';
import { MiniSearchEngine } from './minisearch';
import { OursEngine } from './ours';
import { SqliteFts5Engine } from './sqlite-fts5';

const alice: SearchViewer = { userId: 'alice', organisationId: 'org-a' };
const bob: SearchViewer = { userId: 'bob', organisationId: 'org-b' };
const carol: SearchViewer = { userId: 'carol', organisationId: 'org-c' };

function record(n: number, fields: Partial<RecordDocument>): RecordDocument {
  const at = new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString();
  return {
    id: `r${n}`,
    name: `river flow station ${n}`,
    description: 'daily river flow measurements',
    headers: ['date', 'flow'],
    words: ['river', 'flow'],
    ownerId: 'alice',
    organisationId: 'org-a',
    visibility: 'PR',
    sharedWithUserIds: [],
    sharedWithOrganisationIds: [],
    groupIds: [],
    createdAt: at,
    changedAt: at,
    card: {},
    ...fields,
  };
}

const RECORDS: RecordDocument[] = [
  record(1, {}), // alice's, PR: alice (and org-a)
  record(2, { visibility: 'EV', ownerId: 'bob', organisationId: 'org-b' }), // everyone
  record(3, { ownerId: 'bob', organisationId: 'org-b' }), // bob's org only
  record(4, { visibility: 'CU', ownerId: 'bob', organisationId: 'org-b', sharedWithUserIds: ['alice'] }), // bob's org and alice
  record(5, { visibility: 'CU', ownerId: 'bob', organisationId: 'org-b', sharedWithOrganisationIds: ['org-c'] }), // bob's org and org-c
  record(6, { visibility: 'EV', ownerOnly: true }), // alice alone, whatever its visibility
  record(7, { ownerId: 'dave', organisationId: 'org-a' }), // alice's organisation, not hers
];

/** What each viewer must see of RECORDS, by the rule (hard-coded, so the check does not trust mayView alone). */
const EXPECTED: Array<[string, SearchViewer | null, 'all' | 'own', string[]]> = [
  ['alice', alice, 'all', ['r1', 'r2', 'r4', 'r6', 'r7']],
  ['alice, own', alice, 'own', ['r1', 'r6']],
  ['bob', bob, 'all', ['r2', 'r3', 'r4', 'r5']],
  ['carol', carol, 'all', ['r2', 'r5']],
  ['anonymous', null, 'all', ['r2']],
  ['anonymous, own', null, 'own', []],
];

describe('peer benchmark engines', () => {
  let dir: string;
  const engines: PeerEngine[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'peers-spec-'));
    engines.push(new OursEngine(), SqliteFts5Engine.in(dir), new SqliteFts5Engine(path.join(dir, 'tiers.db'), 'tiers'), new MiniSearchEngine());
    for (const engine of engines) engine.build(RECORDS);
  });
  afterAll(() => {
    for (const engine of engines) engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the rule itself: mayView gives the expected records', () => {
    for (const [, viewer, view, ids] of EXPECTED) expect(RECORDS.filter((doc) => mayView(doc, { viewer, view })).map((doc) => doc.id)).toEqual(ids);
  });

  for (const [label, viewer, view, ids] of EXPECTED) {
    it(`every engine shows ${label} exactly the records the rule lets through, for text and the empty query`, () => {
      for (const engine of engines) {
        for (const text of ['river flow', undefined]) {
          const query: SearchQuery = { text, viewer, view, page: 1, pageSize: 20 };
          const page = engine.search(query);
          expect({ engine: engine.name, text, ids: page.hits.map((hit) => hit.id).sort() }).toEqual({ engine: engine.name, text, ids });
          expect(page.count).toBe(ids.length);
        }
      }
    });
  }

  it('every engine pages the empty query newest first, by offset and by cursor alike', () => {
    for (const engine of engines) {
      const first = engine.search({ viewer: alice, view: 'all', page: 1, pageSize: 2 });
      expect(first.hits.map((hit) => hit.id)).toEqual(['r7', 'r6']);
      expect(first.hasMore).toBe(true);
      const last = first.hits[1];
      const byCursor = engine.search({ viewer: alice, view: 'all', page: 2, pageSize: 2, after: { score: null, changedAt: last.changedAt, id: last.id } });
      const byOffset = engine.search({ viewer: alice, view: 'all', page: 2, pageSize: 2 });
      expect(byCursor.hits.map((hit) => hit.id)).toEqual(['r4', 'r2']);
      expect(byOffset.hits.map((hit) => hit.id)).toEqual(['r4', 'r2']);
    }
  });

  it('every engine finds a mistyped name word, and only visible records', () => {
    for (const engine of engines) {
      const page = engine.search({ text: 'stationn', viewer: carol, view: 'all', page: 1, pageSize: 20 });
      expect({ engine: engine.name, ids: page.hits.map((hit) => hit.id).sort() }).toEqual({ engine: engine.name, ids: ['r2', 'r5'] });
    }
  });

  it("SQLite with ours' ranking pages a text search as ours does", () => {
    // 30 records, the words in the name of every third, in the description of the next, elsewhere in the last: three tiers of ten.
    const corpus = Array.from({ length: 30 }, (_, i) =>
      record(i, {
        id: `t${String(i).padStart(2, '0')}`,
        name: i % 3 === 0 ? `ozone level ${i}` : `station ${i}`,
        description: i % 3 === 1 ? 'ozone level readings' : 'readings',
        headers: ['date'],
        words: ['ozone', 'level'],
        visibility: 'EV',
      }),
    );
    const ours = new OursEngine();
    const tiers = new SqliteFts5Engine(path.join(dir, 'tiers-ranking.db'), 'tiers');
    ours.build(corpus);
    tiers.build(corpus);
    try {
      for (const page of [1, 2, 3, 6]) {
        const query: SearchQuery = { text: 'ozone level', viewer: null, view: 'all', page, pageSize: 5 };
        const expected = ours.search(query);
        expect(expected.hits).toHaveLength(5);
        expect(tiers.search(query).hits.map((hit) => [hit.id, hit.score])).toEqual(expected.hits.map((hit) => [hit.id, hit.score]));
      }
    } finally {
      ours.close();
      tiers.close();
    }
  });

  it('every engine answers alike after persist and restore (the restart)', () => {
    const factories: Array<(where: string) => PeerEngine> = [
      () => new OursEngine(),
      (where) => SqliteFts5Engine.in(where),
      (where) => SqliteFts5Engine.in(where, 'tiers'),
      () => new MiniSearchEngine(),
    ];
    const queries: SearchQuery[] = [
      { text: 'river flow', viewer: alice, view: 'all', page: 1, pageSize: 20 },
      { viewer: bob, view: 'all', page: 1, pageSize: 20 },
      { text: 'stationn', viewer: carol, view: 'all', page: 1, pageSize: 20 },
    ];
    factories.forEach((make, i) => {
      const where = mkdtempSync(path.join(dir, `restart-${i}-`));
      const built = make(where);
      built.build(RECORDS);
      const before = queries.map((query) => built.search(query).hits.map((hit) => hit.id));
      built.persist(where);
      built.close();
      const restored = make(where);
      restored.restore(where);
      expect({ engine: restored.name, ids: queries.map((query) => restored.search(query).hits.map((hit) => hit.id)) }).toEqual({
        engine: restored.name,
        ids: before,
      });
      restored.close();
    });
  });

  it('trigram similarity is 1 for equal words and falls with edits', () => {
    expect(trigramSimilarity('temperature', 'temperature')).toBe(1);
    expect(trigramSimilarity('temperture', 'temperature')).toBeGreaterThan(0.5);
    expect(trigramSimilarity('river', 'flow')).toBe(0);
  });
});
