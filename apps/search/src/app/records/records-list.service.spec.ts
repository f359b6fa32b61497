import { DetailError, FieldValidationError } from '@dc/platform';
import { RecordDocument, SearchIndex, SearchQuery, SearchResult } from '@dc/search-index';
import { RequestStatuses } from '../requests/request-statuses';
import { RecordsListService } from './records-list.service';

const doc = (id: string, overrides: Partial<RecordDocument> = {}): RecordDocument => ({
  id,
  name: `Record ${id}`,
  description: '',
  headers: ['a', 'b'],
  words: [],
  ownerId: 'owner',
  organisationId: 'org-1',
  visibility: 'PR',
  sharedWithUserIds: [],
  sharedWithOrganisationIds: [],
  groupIds: [],
  createdAt: '2026-01-01T00:00:00Z',
  changedAt: '2026-01-02T00:00:00Z',
  card: { user: 'ada', size: 10 },
  ...overrides,
});

class FakeIndex {
  queries: SearchQuery[] = [];
  constructor(private readonly docs: RecordDocument[]) {}
  async search(query: SearchQuery): Promise<SearchResult> {
    this.queries.push(query);
    const start = (query.page - 1) * query.pageSize;
    return {
      count: this.docs.length,
      countCapped: false,
      hasMore: start + query.pageSize < this.docs.length,
      results: this.docs.slice(start, start + query.pageSize),
    };
  }
}

describe('records list', () => {
  const docs = Array.from({ length: 25 }, (_, i) => doc(`r${i}`));
  const index = new FakeIndex(docs);
  /** The viewer 'req' asked for r1 (approved) and r2 (sent). */
  const statuses: RequestStatuses = {
    statusesFor: async (viewerId: string, ids: string[]) => {
      const known: Record<string, 'approved' | 'sent'> = { r1: 'approved', r2: 'sent' };
      return new Map(viewerId === 'req' ? ids.filter((id) => known[id]).map((id) => [id, known[id]]) : []);
    },
  };
  const service = new RecordsListService(index as unknown as SearchIndex, statuses);
  const base = 'http://x/api/records/?query=rain';

  it('pages by 20 with links to the neighbouring pages', async () => {
    const first = await service.list({ query: 'rain' }, null, base);
    expect(first).toMatchObject({
      count: 25,
      previous: null,
      next: expect.stringMatching(/^http:\/\/x\/api\/records\/\?query=rain&page=2&page_size=20&cursor=[\w-]+$/),
    });
    expect(first.results).toHaveLength(20);
    const second = await service.list({ query: 'rain', page: '2' }, null, base);
    expect(second.results).toHaveLength(5);
    expect(second.next).toBeNull();
    expect(index.queries.at(-1)).toMatchObject({ text: 'rain', viewer: null, view: 'all', page: 2, pageSize: 20 });
  });

  it('hands the index the cursor of the next link as search-after, beside the page number', async () => {
    const first = await service.list({ query: 'rain' }, null, base);
    const cursor = new URL(first.next!).searchParams.get('cursor')!;
    await service.list({ query: 'rain', page: '2', cursor }, null, base);
    expect(index.queries.at(-1)).toMatchObject({ page: 2, after: { score: null, changedAt: '2026-01-02T00:00:00Z', id: 'r19' } });
    // On page 1 a cursor means nothing.
    await service.list({ query: 'rain', cursor }, null, base);
    expect(index.queries.at(-1)?.after).toBeUndefined();
    await expect(service.list({ page: '2', cursor: 'garbage!' }, null, base)).rejects.toBeInstanceOf(FieldValidationError);
  });

  it('answers an invalid or exhausted page with 404 Invalid page.', async () => {
    for (const page of ['0', 'x', '3']) {
      await expect(service.list({ page }, null, base)).rejects.toEqual(new DetailError('Invalid page.', 404));
    }
  });

  it('says on each card what the viewer may do: owner, Data Admin of the organisation, others', async () => {
    const owner = (await service.list({}, { userId: 'owner', organisationId: 'org-1', permissions: [] }, base)).results[0];
    expect(owner).toMatchObject({ is_owner: true, edit: true, can_delete: true, user: 'ada', headers: ['a', 'b'] });
    const admin = (await service.list({}, { userId: 'admin', organisationId: 'org-1', permissions: ['records.change_record', 'records.delete_record'] }, base))
      .results[0];
    expect(admin).toMatchObject({ is_owner: false, edit: true, can_delete: true });
    const colleague = (await service.list({}, { userId: 'viewer', organisationId: 'org-1', permissions: ['records.view_record'] }, base)).results[0];
    expect(colleague).toMatchObject({ is_owner: false, edit: false, can_delete: false });
    const outsider = (await service.list({}, { userId: 'x', organisationId: 'org-2', permissions: ['records.change_record'] }, base)).results[0];
    expect(outsider).toMatchObject({ is_owner: false, edit: false, can_delete: false });
  });

  it("shows each card the viewer's request status (none for anonymous visitors and other viewers)", async () => {
    const cards = (await service.list({}, { userId: 'req', organisationId: 'org-2', permissions: [] }, base)).results;
    expect(cards.slice(0, 3).map((c) => c.request_status)).toEqual([null, 'approved', 'sent']);
    expect((await service.list({}, null, base)).results.every((c) => c.request_status === null)).toBe(true);
  });

  it("caps the page size and passes own view and the project filter (the caller organisation's project) to the index", async () => {
    await service.list({ page_size: '1000', view: 'own', group: 'g-1' }, { userId: 'owner', organisationId: 'org-1', permissions: [] }, base);
    expect(index.queries.at(-1)).toMatchObject({ pageSize: 100, view: 'own', groupId: 'org-1/g-1' });
    // Anonymous callers have no project: the index is not even asked.
    const asked = index.queries.length;
    expect(await service.list({ group: 'g-1' }, null, base)).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(index.queries).toHaveLength(asked);
  });

  it('answers a repeated parameter with 400 and the field error shape', async () => {
    await expect(service.list({ query: ['a', 'b'] as unknown as string }, null, base)).rejects.toEqual(
      new FieldValidationError({ query: ['Give this parameter once.'] }),
    );
  });

  it('passes refid to the index as the reference of a "find similar datasets" search', async () => {
    await service.list({ refid: 'r-7', query: 'rain' }, null, base);
    expect(index.queries.at(-1)).toMatchObject({ relatedTo: 'r-7', viewer: null });
    await service.list({ refid: '' }, null, base);
    expect(index.queries.at(-1)?.relatedTo).toBeUndefined();
  });
});
