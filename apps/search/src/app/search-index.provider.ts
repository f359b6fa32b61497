import type { AppConfig } from '@dc/platform';
import { ElasticsearchSearchIndex, PostgresSearchIndex, SearchIndex } from '@dc/search-index';

/** The index adapter from SEARCH_DRIVER; the PostgreSQL one lives in the search service's own schema. */
export function createSearchIndex(config: AppConfig): SearchIndex {
  return config.SEARCH_DRIVER === 'elasticsearch'
    ? new ElasticsearchSearchIndex({ node: config.ELASTICSEARCH_URL! })
    : new PostgresSearchIndex({ connectionString: config.DATABASE_URL!, schema: 'search' });
}
