import type { RecordDocument, SearchIndex, SearchQuery } from './search-index';
import { pagingContract } from './search-index-paging.contract';
import {
  alice,
  amy,
  bob,
  contractContext,
  dave,
  minutesIn,
  NOTHING,
  recordDocument,
  viewers,
  type IndexFactory,
  type ViewerName,
} from './search-index-contract-support';

export { minutesIn, recordDocument };

/**
 * The SearchIndex contract, run against every adapter. The factory returns an adapter with the
 * given limits on one store, empty at the first call; the suite calls init() and close() itself.
 */
export function searchIndexContract(name: string, factory: IndexFactory): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;
    const context = contractContext(() => index, factory);
    const { query, ids, pagesAfter, reset } = context;

    beforeAll(async () => {
      index = await factory();
      await index.init();
    });
    afterAll(async () => {
      await index?.close();
    });

    it('says it is ready (what readiness reports) once a search has answered', async () => {
      await index.search(query({}));
      expect(index.notReady()).toBeNull();
    });

    describe('visibility', () => {
      // Every description says "sensor" so the same matrix can be checked with and without text.
      const rec = (id: string, ownerId: string, organisationId: string, visibility: RecordDocument['visibility'], extra: Partial<RecordDocument> = {}) =>
        recordDocument({ id, ownerId, organisationId, visibility, description: `sensor feed ${id}`, ...extra });
      const docs = [
        rec('a-ev', 'alice', 'org-a', 'EV', { groupIds: ['g1'] }),
        rec('a-pr', 'alice', 'org-a', 'PR', { groupIds: ['g1'], name: 'Secret plans' }),
        rec('a-cu-user', 'alice', 'org-a', 'CU', { sharedWithUserIds: ['bob'] }),
        rec('a-cu-org', 'alice', 'org-a', 'CU', { sharedWithOrganisationIds: ['org-c'] }),
        // Lists left over on a PR record grant nothing.
        rec('a-pr-stale', 'alice', 'org-a', 'PR', { sharedWithUserIds: ['dave'], sharedWithOrganisationIds: ['org-d'] }),
        rec('m-pr', 'amy', 'org-a', 'PR', { groupIds: ['g1'] }),
        rec('b-pr', 'bob', 'org-b', 'PR', { groupIds: ['g1'] }),
        rec('b-ev', 'bob', 'org-b', 'EV'),
        rec('b-cu-alice', 'bob', 'org-b', 'CU', { sharedWithUserIds: ['alice'] }),
      ];
      const orgA = ['a-ev', 'a-pr', 'a-cu-user', 'a-cu-org', 'a-pr-stale', 'm-pr'];
      const cases: Array<[string, ViewerName, Partial<SearchQuery>, string[]]> = [
        ['anonymous sees EV only', 'anonymous', {}, ['a-ev', 'b-ev']],
        ['the owner sees their organisation, EV and CU records listing them', 'alice', {}, [...orgA, 'b-ev', 'b-cu-alice']],
        ['a member of the same organisation sees its PR and CU records', 'amy', {}, [...orgA, 'b-ev']],
        ['another organisation sees EV and CU records listing the user', 'bob', {}, ['a-ev', 'a-cu-user', 'b-pr', 'b-ev', 'b-cu-alice']],
        ['a user of a listed organisation sees the CU record', 'carol', {}, ['a-ev', 'a-cu-org', 'b-ev']],
        ['every member of a listed organisation sees the CU record', 'cid', {}, ['a-ev', 'a-cu-org', 'b-ev']],
        ['a stranger sees EV only, whatever a PR record lists', 'dave', {}, ['a-ev', 'b-ev']],
        ['own: the records the viewer owns', 'alice', { view: 'own' }, ['a-ev', 'a-pr', 'a-cu-user', 'a-cu-org', 'a-pr-stale']],
        ['own: only their own, not their organisation’s', 'amy', { view: 'own' }, ['m-pr']],
        ['own: nothing for a viewer who owns nothing', 'dave', { view: 'own' }, []],
        ['own: nothing for anonymous', 'anonymous', { view: 'own' }, []],
        ['group: anonymous sees only the EV records of the project', 'anonymous', { groupId: 'g1' }, ['a-ev']],
        ['group: the visible records of the project', 'alice', { groupId: 'g1' }, ['a-ev', 'a-pr', 'm-pr']],
        ['group: another organisation sees only what it may', 'bob', { groupId: 'g1' }, ['a-ev', 'b-pr']],
        ['group and own together', 'alice', { groupId: 'g1', view: 'own' }, ['a-ev', 'a-pr']],
        ['an unknown group is empty', 'alice', { groupId: 'nope' }, []],
      ];

      beforeAll(() => reset(docs));

      describe.each([
        ['without text', undefined],
        ['with text', 'sensor'],
      ])('%s', (_label, text) => {
        it.each(cases)('%s', async (_title, viewerName, extra, expected) => {
          const viewer = viewers[viewerName];
          const all = await index.search(query({ ...extra, viewer, text }));
          expect(all.results.map((hit) => hit.id).sort()).toEqual([...expected].sort());
          expect(all.count).toBe(expected.length);
          // The count of a one-record page still covers only what the viewer may see.
          const first = await index.search(query({ ...extra, viewer, text, pageSize: 1 }));
          expect(first.count).toBe(expected.length);
          expect(first.results).toHaveLength(Math.min(1, expected.length));
          expect(first).toMatchObject({ countCapped: false, hasMore: expected.length > 1 });
        });
      });

      it('does not reveal a hidden record to a search for its exact name', async () => {
        expect(await index.search(query({ text: 'Secret plans' }))).toEqual(NOTHING);
        expect(await index.search(query({ text: 'Secret plans', viewer: dave }))).toEqual(NOTHING);
        expect(await ids({ text: 'Secret plans', viewer: amy })).toEqual(['a-pr']);
      });

      it('shows an owner-only record (lineage) to its owner alone, whatever its visibility and lists say', async () => {
        const derived = [
          rec('a-only-ev', 'alice', 'org-a', 'EV', { ownerOnly: true, name: 'Derived rainfall', groupIds: ['g1'] }),
          rec('a-only-cu', 'alice', 'org-a', 'CU', {
            ownerOnly: true,
            name: 'Derived rainfall shared',
            sharedWithUserIds: ['bob'],
            sharedWithOrganisationIds: ['org-c'],
          }),
        ];
        await index.upsert(derived);
        try {
          const derivedIds = derived.map((d) => d.id).sort();
          for (const text of [undefined, 'sensor', 'Derived rainfall']) {
            expect((await ids({ viewer: alice, text })).filter((id) => derivedIds.includes(id)).sort()).toEqual(derivedIds);
            for (const viewerName of ['anonymous', 'amy', 'bob', 'carol', 'dave'] as const) {
              expect([viewerName, (await ids({ viewer: viewers[viewerName], text })).filter((id) => derivedIds.includes(id))]).toEqual([viewerName, []]);
            }
          }
          expect((await ids({ viewer: alice, view: 'own' })).filter((id) => derivedIds.includes(id)).sort()).toEqual(derivedIds);
          expect(await ids({ viewer: amy, groupId: 'g1' })).not.toContain('a-only-ev');
          // Nor does it serve as a reference of "find similar" for anyone else.
          expect(await index.search(query({ viewer: amy, relatedTo: 'a-only-ev' }))).toEqual(NOTHING);
          expect((await index.get('a-only-ev'))?.ownerOnly).toBe(true);
        } finally {
          await index.remove(derived.map((d) => d.id));
        }
      });
    });

    describe('relevance', () => {
      beforeAll(() =>
        reset([
          recordDocument({ id: 'river-exact', name: 'River flow', changedAt: minutesIn(1) }),
          recordDocument({ id: 'river-more', name: 'River flow river flow gauges', description: 'river flow, river flow', changedAt: minutesIn(2) }),
          recordDocument({ id: 'river-desc', name: 'Hydrology', description: 'Daily river flow at the weir', changedAt: minutesIn(3) }),
          recordDocument({ id: 'ozone-name', name: 'Ozone levels', description: 'Hourly measurements', changedAt: minutesIn(1) }),
          recordDocument({ id: 'ozone-description', name: 'Air quality', description: 'Hourly ozone measurements', changedAt: minutesIn(2) }),
          recordDocument({ id: 'ozone-header', name: 'Station data', headers: ['ozone', 'station'], changedAt: minutesIn(3) }),
          recordDocument({ id: 'ozone-word', name: 'Lab results', words: ['ozone', 'sample'], changedAt: minutesIn(3) }),
          recordDocument({ id: 'rainfall', name: 'Rainfall', description: 'Monthly totals', changedAt: minutesIn(4) }),
          recordDocument({ id: 'temperature', name: 'Temperature readings', description: 'Hourly values', changedAt: minutesIn(1) }),
          recordDocument({ id: 'glacier-b', name: 'Glacier mass balance', changedAt: minutesIn(5) }),
          recordDocument({ id: 'glacier-a', name: 'Glacier mass balance', changedAt: minutesIn(5) }),
          recordDocument({ id: 'glacier-c', name: 'Glacier mass balance', changedAt: minutesIn(6) }),
        ]),
      );

      it('ranks an exact, case-insensitive name match first', async () => {
        for (const text of ['river flow', 'RIVER FLOW', '  River   flow ']) {
          const found = await ids({ text });
          expect(found[0]).toBe('river-exact');
          expect(found).toEqual(expect.arrayContaining(['river-more', 'river-desc']));
        }
      });

      it('ranks name matches above description matches above headers and words, and leaves out non-matches', async () => {
        const found = await ids({ text: 'ozone' });
        expect(found).toHaveLength(4);
        expect(found.slice(0, 2)).toEqual(['ozone-name', 'ozone-description']);
        expect(found.slice(2).sort()).toEqual(['ozone-header', 'ozone-word']);
      });

      it('finds a record by its name despite a typo', async () => {
        expect((await ids({ text: 'temperture' }))[0]).toBe('temperature');
        expect((await ids({ text: 'Temprature readings' }))[0]).toBe('temperature');
      });

      it('ranks records with every word above records with some of them, in one order whatever the page size', async () => {
        const some = await ids({ text: 'daily river' });
        expect(some[0]).toBe('river-desc');
        expect(some.slice(1).sort()).toEqual(['river-exact', 'river-more']);
        for (const text of ['river ozone', 'temperture', 'daily river']) {
          const all = await ids({ text });
          expect(all.length).toBeGreaterThan(0);
          const onePerPage: string[] = [];
          for (let page = 1; page <= all.length + 1; page++) onePerPage.push(...(await ids({ text, page, pageSize: 1 })));
          expect(onePerPage).toEqual(all);
        }
      });

      it('returns a score with text and none without', async () => {
        const withText = await index.search(query({ text: 'ozone' }));
        for (const hit of withText.results) expect(typeof hit.score).toBe('number');
        expect(withText.results[0].score).toBeGreaterThan(withText.results[withText.results.length - 1].score ?? Infinity);
        const withoutText = await index.search(query({}));
        for (const hit of withoutText.results) expect(hit.score).toBeUndefined();
      });

      it('breaks ties by newest change, then id', async () => {
        expect(await ids({ text: 'glacier' })).toEqual(['glacier-c', 'glacier-a', 'glacier-b']);
      });

      it('lists newest changes first without text, ties by id', async () => {
        expect(await ids({})).toEqual([
          'glacier-c',
          'glacier-a',
          'glacier-b',
          'rainfall',
          'ozone-header',
          'ozone-word',
          'river-desc',
          'ozone-description',
          'river-more',
          'ozone-name',
          'river-exact',
          'temperature',
        ]);
        expect(await ids({ text: '   ' })).toHaveLength(12);
      });

      it('treats query syntax in the text as plain words', async () => {
        for (const text of ['"ozone', '-ozone', 'ozone | rainfall & !x', "o'zone:* (or) \\", 'or', '!!!', '%_%']) {
          const result = await index.search(query({ text }));
          expect(result.count).toBe(result.results.length);
        }
        expect(await ids({ text: '-ozone' })).toContain('ozone-name');
      });
    });

    describe('find similar datasets (relatedTo)', () => {
      const docs = [
        recordDocument({
          id: 'ref',
          name: 'River flow gauges',
          headers: ['station', 'discharge'],
          words: ['river', 'discharge', 'weir'],
          changedAt: minutesIn(1),
        }),
        recordDocument({ id: 'same-name', name: 'River flow at the weir', description: 'Daily means', changedAt: minutesIn(2) }),
        recordDocument({ id: 'same-headers', name: 'Hydrometric data', headers: ['station', 'discharge', 'stage'], changedAt: minutesIn(3) }),
        recordDocument({ id: 'one-word', name: 'Lab results', words: ['weir'], changedAt: minutesIn(4) }),
        recordDocument({ id: 'unrelated', name: 'Ozone levels', description: 'Hourly measurements', headers: ['ozone'], changedAt: minutesIn(5) }),
        // As related as can be, but only its organisation may see it.
        recordDocument({
          id: 'hidden-twin',
          name: 'River flow gauges',
          headers: ['station', 'discharge'],
          ownerId: 'bob',
          organisationId: 'org-b',
          visibility: 'PR',
          changedAt: minutesIn(6),
        }),
        recordDocument({
          id: 'hidden-ref',
          name: 'Secret river flow',
          headers: ['station'],
          ownerId: 'bob',
          organisationId: 'org-b',
          visibility: 'PR',
          changedAt: minutesIn(7),
        }),
        recordDocument({ id: 'in-project', name: 'Weir inspections', groupIds: ['g1'], ownerId: 'alice', organisationId: 'org-a', changedAt: minutesIn(8) }),
      ];
      beforeAll(() => reset(docs));

      it('lists the records most related to the reference first, without the reference and without unrelated ones', async () => {
        const found = await index.search(query({ relatedTo: 'ref' }));
        const foundIds = found.results.map((hit) => hit.id);
        expect(foundIds[0]).toBe('same-name');
        expect([...foundIds].sort()).toEqual(['in-project', 'one-word', 'same-headers', 'same-name']);
        expect(found.count).toBe(4);
        for (const hit of found.results) expect(typeof hit.score).toBe('number');
        // Sharing one word of the word set relates least.
        expect(foundIds.at(-1)).toBe('one-word');
      });

      it('ignores the text when a reference is given', async () => {
        expect((await ids({ relatedTo: 'ref', text: 'ozone' })).sort()).toEqual(['in-project', 'one-word', 'same-headers', 'same-name']);
      });

      it('shows related records only to those who may see them', async () => {
        expect(await ids({ relatedTo: 'ref', viewer: bob })).toContain('hidden-twin');
        expect(await ids({ relatedTo: 'ref', viewer: dave })).not.toContain('hidden-twin');
      });

      it('reveals nothing through a reference the viewer may not see, as for an unknown one', async () => {
        expect(await index.search(query({ relatedTo: 'hidden-ref' }))).toEqual(NOTHING);
        expect(await index.search(query({ relatedTo: 'hidden-ref', viewer: alice }))).toEqual(NOTHING);
        expect(await index.search(query({ relatedTo: 'no-such-record', viewer: alice }))).toEqual(NOTHING);
        expect(await ids({ relatedTo: 'hidden-ref', viewer: bob })).toEqual(expect.arrayContaining(['ref', 'same-name', 'hidden-twin']));
      });

      it('keeps the own and project filters', async () => {
        expect(await ids({ relatedTo: 'ref', viewer: alice, view: 'own' })).toEqual(['in-project']);
        expect(await ids({ relatedTo: 'ref', viewer: alice, groupId: 'g1' })).toEqual(['in-project']);
        expect(await ids({ relatedTo: 'ref', viewer: alice, groupId: 'nope' })).toEqual([]);
      });

      it('pages through related records in one stable order', async () => {
        const all = await ids({ relatedTo: 'ref' });
        const pages = [];
        for (let page = 1; page <= 3; page++) pages.push(...(await ids({ relatedTo: 'ref', page, pageSize: 2 })));
        expect(pages).toEqual(all);
        const byCursor = await pagesAfter(index, { relatedTo: 'ref' }, 2, 3);
        expect(byCursor.flatMap((page) => page.results.map((hit) => hit.id))).toEqual(all);
      });
    });

    pagingContract(context);
  });
}
