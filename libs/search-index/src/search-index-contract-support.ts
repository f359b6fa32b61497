import type { RecordDocument, SearchCursor, SearchHit, SearchIndex, SearchLimits, SearchQuery, SearchResult, SearchViewer } from './search-index';

/** What the parts of the SearchIndex contract (search-index.contract.ts, search-index-paging.contract.ts) share. */

const BASE_TIME = Date.UTC(2024, 0, 1);
/** A timestamp `minutes` after a fixed start, so orderings are explicit. */
export const minutesIn = (minutes: number) => new Date(BASE_TIME + minutes * 60_000).toISOString();

/** A complete record document with dull defaults; tests name only what matters to them. */
export function recordDocument(overrides: Partial<RecordDocument> & { id: string }): RecordDocument {
  return {
    name: `Record ${overrides.id}`,
    description: '',
    headers: [],
    words: [],
    ownerId: 'owner',
    organisationId: 'org-owner',
    visibility: 'EV',
    sharedWithUserIds: [],
    sharedWithOrganisationIds: [],
    groupIds: [],
    createdAt: minutesIn(0),
    changedAt: minutesIn(0),
    card: {},
    ...overrides,
  };
}

/** What a search that finds nothing answers. */
export const NOTHING: SearchResult = { count: 0, countCapped: false, hasMore: false, results: [] };

export const alice: SearchViewer = { userId: 'alice', organisationId: 'org-a' };
export const amy: SearchViewer = { userId: 'amy', organisationId: 'org-a' };
export const bob: SearchViewer = { userId: 'bob', organisationId: 'org-b' };
const carol: SearchViewer = { userId: 'carol', organisationId: 'org-c' };
const cid: SearchViewer = { userId: 'cid', organisationId: 'org-c' };
export const dave: SearchViewer = { userId: 'dave', organisationId: 'org-d' };
export const viewers = { anonymous: null, alice, amy, bob, carol, cid, dave };
export type ViewerName = keyof typeof viewers;

export type IndexFactory = (limits?: SearchLimits) => SearchIndex | Promise<SearchIndex>;

/** The suite's adapter (set in its beforeAll) and the helpers every part of the contract uses on it. */
export interface ContractContext {
  index(): SearchIndex;
  factory: IndexFactory;
  query(q: Partial<SearchQuery>): SearchQuery;
  ids(q: Partial<SearchQuery>): Promise<string[]>;
  /** Every page by search-after: each page's request carries the last result of the page before. */
  pagesAfter(target: SearchIndex, q: Partial<SearchQuery>, pageSize: number, pages: number): Promise<SearchResult[]>;
  reset(docs: RecordDocument[]): Promise<void>;
}

export function contractContext(current: () => SearchIndex, factory: IndexFactory): ContractContext {
  const query = (q: Partial<SearchQuery>): SearchQuery => ({ viewer: null, view: 'all', page: 1, pageSize: 100, ...q });
  const ids = async (q: Partial<SearchQuery>) => (await current().search(query(q))).results.map((hit) => hit.id);
  const cursorOf = (hit: SearchHit): SearchCursor => ({ score: hit.score ?? null, changedAt: hit.changedAt, id: hit.id });
  /** Every page by search-after: each page's request carries the last result of the page before. */
  const pagesAfter = async (target: SearchIndex, q: Partial<SearchQuery>, pageSize: number, pages: number) => {
    const found: SearchResult[] = [];
    let after: SearchCursor | undefined;
    for (let page = 1; page <= pages; page++) {
      const result = await target.search(query({ ...q, page, pageSize, after }));
      found.push(result);
      const last = result.results.at(-1);
      after = last ? cursorOf(last) : after;
    }
    return found;
  };
  const reset = async (docs: RecordDocument[]) => {
    await current().clear();
    await current().upsert(docs);
  };

  return { index: current, factory, query, ids, pagesAfter, reset };
}
