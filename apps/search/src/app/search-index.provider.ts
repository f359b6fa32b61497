import type { Logger } from 'pino';
import type { AppConfig } from '@dc/platform';
import { ElasticsearchSearchIndex, InProcessSearchIndex, PostgresSearchIndex, SearchIndex } from '@dc/search-index';

export interface SearchIndexUse {
  /** A script that only clears the index need not load the in-process one. */
  loadOnInit?: boolean;
  /** The platform logger (LOGGER): the in-process index logs the failures of its background work (loading, snapshots, rebuilds) there. */
  logger?: Logger;
}

/**
 * The index adapter from SEARCH_DRIVER. The in-process index (embedded mode's default) and the
 * PostgreSQL one (distributed mode's) keep their tables in the search service's own schema; the
 * PostgreSQL one is the slower choice (docs/benchmarks.md).
 */
export function createSearchIndex(config: AppConfig, use: SearchIndexUse = {}): SearchIndex {
  switch (config.SEARCH_DRIVER) {
    case 'elasticsearch':
      return new ElasticsearchSearchIndex({ node: config.ELASTICSEARCH_URL! });
    case 'postgres':
      return new PostgresSearchIndex({ connectionString: config.DATABASE_URL!, schema: 'search' });
    case 'in-process':
      return new InProcessSearchIndex({ connectionString: config.DATABASE_URL!, schema: 'search', loadOnInit: use.loadOnInit, logger: use.logger });
  }
}
