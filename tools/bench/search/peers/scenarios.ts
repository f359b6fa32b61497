import type { SearchQuery } from '@dc/search-index';
import { SEARCH_SCENARIOS } from '../scenarios';
import { BENCH_VIEWER } from './engine';

/** The search benchmark's query classes as port queries: the bench viewer's, or an anonymous visitor's. */
export interface PeerScenario {
  name: string;
  query: SearchQuery;
}

export const PEER_SCENARIOS: PeerScenario[] = SEARCH_SCENARIOS.map(({ name, anonymous, query }) => ({
  name,
  query: { ...query, viewer: anonymous ? null : BENCH_VIEWER },
}));
