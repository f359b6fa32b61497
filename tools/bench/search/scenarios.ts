import type { SearchQuery } from '@dc/search-index';

/** The query classes of the search benchmarks: search.bench.ts sends them through the gateway, the peer benchmark to each engine. */
export interface SearchScenario {
  name: string;
  /** Path and query string under the gateway. */
  path: string;
  anonymous?: boolean;
  query: Omit<SearchQuery, 'viewer'>;
  /** A deep page: reached by following this many `next` links from page 1, then asked for with its cursor. */
  follow?: number;
}

/** Page 1 of everything the viewer sees, 20 a page. */
export const page1 = { view: 'all' as const, page: 1, pageSize: 20 };
export const SEARCH_SCENARIOS: SearchScenario[] = [
  { name: 'ranked text, two words ("housing prices"), page 1', path: '/api/records/?query=housing%20prices', query: { ...page1, text: 'housing prices' } },
  { name: 'ranked text, frequent words ("river flow"), page 1', path: '/api/records/?query=river%20flow', query: { ...page1, text: 'river flow' } },
  { name: 'ranked text, a word in most records ("data"), page 1', path: '/api/records/?query=data', query: { ...page1, text: 'data' } },
  { name: 'typo ("temperture"), page 1', path: '/api/records/?query=temperture', query: { ...page1, text: 'temperture' } },
  { name: 'empty query (newest first), page 1', path: '/api/records/', query: page1 },
  { name: 'empty query, deep page 250', path: '/api/records/', query: { ...page1, page: 250 }, follow: 249 },
  { name: 'ranked text ("river flow"), deep page 25', path: '/api/records/?query=river%20flow', query: { ...page1, text: 'river flow', page: 25 }, follow: 24 },
  { name: 'own records (5%), page 1', path: '/api/records/?view=own', query: { ...page1, view: 'own' } },
  {
    name: 'anonymous, EV only (5%), "river flow", page 1',
    path: '/api/recordsannon/?query=river%20flow',
    anonymous: true,
    query: { ...page1, text: 'river flow' },
  },
];
