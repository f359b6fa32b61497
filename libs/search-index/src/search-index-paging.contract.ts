import { InvalidSearchInputError, type SearchIndex } from './search-index';
import { alice, minutesIn, NOTHING, recordDocument, type ContractContext } from './search-index-contract-support';

/** The SearchIndex contract's paging, limits and writes (search-index.contract.ts runs them in its suite). */
export function pagingContract(context: ContractContext): void {
  const { factory, query, ids, pagesAfter, reset } = context;
  let index: SearchIndex;
  beforeAll(() => {
    index = context.index();
  });

  describe('paging', () => {
    const visible = Array.from({ length: 25 }, (_, i) =>
      recordDocument({ id: `page-${String(i).padStart(2, '0')}`, name: `Page record ${i}`, description: 'paged survey', changedAt: minutesIn(i % 7) }),
    );
    const hidden = Array.from({ length: 5 }, (_, i) =>
      recordDocument({ id: `hidden-${i}`, visibility: 'PR', description: 'paged survey', changedAt: minutesIn(i) }),
    );

    beforeAll(() => reset([...visible, ...hidden]));

    it.each([
      ['without text', undefined],
      ['with text', 'survey'],
    ])('keeps the total count on every page and covers every record exactly once (%s)', async (_label, text) => {
      const pages = [];
      for (let page = 1; page <= 4; page++) pages.push(await index.search(query({ text, page, pageSize: 10 })));
      expect(pages.map((p) => p.count)).toEqual([25, 25, 25, 25]);
      expect(pages.map((p) => p.results.length)).toEqual([10, 10, 5, 0]);
      const paged = pages.flatMap((p) => p.results.map((hit) => hit.id));
      expect(new Set(paged).size).toBe(25);
      expect([...paged].sort()).toEqual(visible.map((doc) => doc.id).sort());
      // Pages are slices of one stable order.
      expect(paged).toEqual(await ids({ text, pageSize: 100 }));
    });

    it.each([
      ['without text', undefined],
      ['with text', 'survey'],
      ['ranked in tiers, typos and any word', 'Page record 3'],
    ])('gives by search-after cursors the pages it gives by number (%s)', async (_label, text) => {
      const byNumber = [];
      for (let page = 1; page <= 4; page++) byNumber.push(await index.search(query({ text, page, pageSize: 7 })));
      expect(await pagesAfter(index, { text }, 7, 4)).toEqual(byNumber);
    });

    it('rejects invalid pages', async () => {
      await expect(index.search(query({ page: 0 }))).rejects.toBeInstanceOf(InvalidSearchInputError);
      await expect(index.search(query({ page: 1.5 }))).rejects.toBeInstanceOf(InvalidSearchInputError);
      await expect(index.search(query({ pageSize: 0 }))).rejects.toBeInstanceOf(InvalidSearchInputError);
    });
  });

  describe('limits: count limit and result window', () => {
    let limited: SearchIndex;
    // 30 visible matches and 5 hidden ones; this adapter counts up to 12 and pages to result 25.
    const docs = [
      ...Array.from({ length: 30 }, (_, i) =>
        recordDocument({ id: `lim-${String(i).padStart(2, '0')}`, name: `Tide gauge ${i}`, description: 'harbour tide', changedAt: minutesIn(i) }),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        recordDocument({ id: `lim-hidden-${i}`, name: `Tide gauge hidden ${i}`, visibility: 'PR', changedAt: minutesIn(100 + i) }),
      ),
    ];
    beforeAll(async () => {
      limited = await factory({ countLimit: 12, resultWindow: 25 });
      await limited.init();
      await reset(docs);
    });
    afterAll(() => limited?.close());

    it.each([
      ['without text', undefined],
      ['with text', 'tide'],
    ])('stops counting at the limit and says so; an exact count below it (%s)', async (_label, text) => {
      expect(await limited.search(query({ text, pageSize: 10 }))).toMatchObject({ count: 12, countCapped: true, hasMore: true });
      expect(await index.search(query({ text, pageSize: 10 }))).toMatchObject({ count: 30, countCapped: false, hasMore: true });
      const few = await limited.search(query({ text, viewer: null, groupId: 'none' }));
      expect(few).toEqual(NOTHING);
    });

    it.each([
      ['without text', undefined],
      ['with text', 'tide'],
    ])('pages up to the result window and no further, in the order of the unlimited index (%s)', async (_label, text) => {
      const unlimited = await ids({ text });
      const pages = [];
      for (let page = 1; page <= 4; page++) pages.push(await limited.search(query({ text, page, pageSize: 10 })));
      expect(pages.map((p) => p.results.length)).toEqual([10, 10, 5, 0]);
      expect(pages.map((p) => p.hasMore)).toEqual([true, true, false, false]);
      expect(pages.flatMap((p) => p.results.map((hit) => hit.id))).toEqual(unlimited.slice(0, 25));
    });

    it('keeps the exact name first and name matches before other matches when more match than the count limit', async () => {
      await limited.upsert([
        recordDocument({ id: 'lim-exact', name: 'Harbour tide', changedAt: minutesIn(-5) }),
        recordDocument({ id: 'lim-name', name: 'Harbour tide survey', changedAt: minutesIn(-4) }),
        recordDocument({ id: 'lim-header', name: 'Port records', headers: ['harbour', 'tide'], changedAt: minutesIn(500) }),
      ]);
      const found = (await limited.search(query({ text: 'harbour tide', pageSize: 25 }))).results.map((hit) => hit.id);
      expect(found.slice(0, 2)).toEqual(['lim-exact', 'lim-name']);
      expect(found).toContain('lim-header');
      await limited.remove(['lim-exact', 'lim-name', 'lim-header']);
    });

    it.each([
      ['without text', undefined],
      ['with text', 'tide'],
      ['ranked in tiers', 'harbour tide'],
    ])('gives by search-after cursors the pages it gives by number, when more match than the count limit (%s)', async (_label, text) => {
      const byNumber = [];
      for (let page = 1; page <= 4; page++) byNumber.push(await limited.search(query({ text, page, pageSize: 8 })));
      expect(await pagesAfter(limited, { text }, 8, 4)).toEqual(byNumber);
    });

    it('tells when another page follows, also on the last full page', async () => {
      expect(await index.search(query({ text: 'tide', page: 3, pageSize: 10 }))).toMatchObject({ hasMore: false, count: 30 });
      expect((await index.search(query({ text: 'tide', page: 2, pageSize: 10 }))).hasMore).toBe(true);
      expect(await index.search(query({ text: 'tide', page: 4, pageSize: 10 }))).toMatchObject({ hasMore: false, results: [] });
    });
  });

  describe('writes', () => {
    beforeEach(() => index.clear());

    it('stores and returns a document as given, card included', async () => {
      const doc = recordDocument({
        id: 'coral',
        name: 'Coral reef survey',
        altName: 'Reef census',
        description: 'Counts per transect',
        headers: ['transect', 'count'],
        words: ['coral', 'reef'],
        groupIds: ['g1'],
        createdAt: '2024-03-01T10:00:00.000Z',
        changedAt: '2024-03-02T10:00:00+02:00',
        card: { owner: { username: 'alice' }, files: 2, tags: ['marine'], access: 'OP' },
      });
      await index.upsert([doc]);
      expect(await index.get('coral')).toEqual(doc);
      expect((await index.search(query({ text: 'coral' }))).results).toEqual([{ ...doc, score: expect.any(Number) }]);
      expect((await index.search(query({ text: 'census' }))).results.map((hit) => hit.id)).toEqual(['coral']);
      expect(await index.get('unknown')).toBeNull();
      expect(await index.getMany(['unknown', 'coral'])).toEqual([doc]);
      expect(await index.getMany([])).toEqual([]);
    });

    it('replaces a document on upsert, visibility and text included', async () => {
      await index.upsert([recordDocument({ id: 'd1', name: 'Coral reef survey', ownerId: 'alice', organisationId: 'org-a', card: { v: 1 } })]);
      const replacement = recordDocument({
        id: 'd1',
        name: 'Kelp forest survey',
        ownerId: 'alice',
        organisationId: 'org-a',
        visibility: 'PR',
        card: { v: 2 },
      });
      await index.upsert([replacement]);
      expect(await index.count()).toBe(1);
      expect(await index.get('d1')).toEqual(replacement);
      expect(await index.search(query({ text: 'coral', viewer: alice }))).toEqual(NOTHING);
      expect(await ids({ text: 'kelp', viewer: alice })).toEqual(['d1']);
      expect(await index.search(query({}))).toEqual(NOTHING);
    });

    it('finds records by short words and single letters of their text', async () => {
      await index.upsert([
        recordDocument({ id: 'sea-ice', name: 'Sea ice extent', headers: ['x', 'y'] }),
        recordDocument({ id: 'other', name: 'Forest cover' }),
      ]);
      expect(await ids({ text: 'sea' })).toEqual(['sea-ice']);
      expect(await ids({ text: 'ice', view: 'all' })).toEqual(['sea-ice']);
      expect(await ids({ text: 'x' })).toEqual(['sea-ice']);
      expect(await ids({ text: 'SEA ICE EXTENT' })).toEqual(['sea-ice']);
    });

    it('keeps the last document of an id within one batch', async () => {
      await index.upsert([recordDocument({ id: 'd1', name: 'First' }), recordDocument({ id: 'd2' }), recordDocument({ id: 'd1', name: 'Second' })]);
      expect(await index.count()).toBe(2);
      expect((await index.get('d1'))?.name).toBe('Second');
    });

    it('rejects an invalid document and writes nothing of its batch', async () => {
      await expect(index.upsert([recordDocument({ id: 'ok' }), recordDocument({ id: 'bad', visibility: 'XX' as never })])).rejects.toBeInstanceOf(
        InvalidSearchInputError,
      );
      await expect(index.upsert([recordDocument({ id: 'bad', changedAt: 'yesterday' })])).rejects.toBeInstanceOf(InvalidSearchInputError);
      expect(await index.count()).toBe(0);
    });

    it('removes documents by id and ignores unknown ids', async () => {
      await index.upsert(['x', 'y', 'z'].map((id) => recordDocument({ id, description: 'removable' })));
      await index.remove(['y', 'unknown']);
      await index.remove([]);
      expect(await index.count()).toBe(2);
      expect(await index.get('y')).toBeNull();
      expect(await ids({ text: 'removable' })).toEqual(['x', 'z']);
    });

    it('clears everything', async () => {
      await index.upsert(['x', 'y'].map((id) => recordDocument({ id })));
      await index.clear();
      expect(await index.count()).toBe(0);
      expect(await index.search(query({}))).toEqual(NOTHING);
    });

    it('can be initialised again without losing data', async () => {
      await index.upsert([recordDocument({ id: 'kept' })]);
      await Promise.all([index.init(), index.init()]);
      expect(await index.get('kept')).not.toBeNull();
    });
  });
}
