import type { SearchQuery } from '@dc/search-index';
import { BENCH_VIEWER } from './engine';

/** The query classes of search.bench.ts's SCENARIOS (same texts, viewers, pages), as port queries. */
export interface PeerScenario {
  name: string;
  query: SearchQuery;
}

const page1 = { view: 'all' as const, page: 1, pageSize: 20, viewer: BENCH_VIEWER };
export const PEER_SCENARIOS: PeerScenario[] = [
  { name: 'ranked text, two words ("housing prices"), page 1', query: { ...page1, text: 'housing prices' } },
  { name: 'ranked text, frequent words ("river flow"), page 1', query: { ...page1, text: 'river flow' } },
  { name: 'ranked text, a word in most records ("data"), page 1', query: { ...page1, text: 'data' } },
  { name: 'typo ("temperture"), page 1', query: { ...page1, text: 'temperture' } },
  { name: 'empty query (newest first), page 1', query: page1 },
  { name: 'empty query, deep page 250', query: { ...page1, page: 250 } },
  { name: 'ranked text ("river flow"), deep page 25', query: { ...page1, text: 'river flow', page: 25 } },
  { name: 'own records (5%), page 1', query: { ...page1, view: 'own' } },
  { name: 'anonymous, EV only (5%), "river flow", page 1', query: { ...page1, viewer: null, text: 'river flow' } },
];
