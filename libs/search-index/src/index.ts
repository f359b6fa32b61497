export {
  SearchIndex,
  InvalidSearchInputError,
  RECORD_VISIBILITIES,
  MAX_PAGE_SIZE,
  MAX_SEARCH_TEXT_LENGTH,
  MAX_RELATED_TERMS,
  DEFAULT_COUNT_LIMIT,
  DEFAULT_RESULT_WINDOW,
  EMPTY_RESULT,
  assertValidQuery,
  normalizeSearchText,
  prepareDocuments,
  relatedTerms,
  type BackgroundFailure,
  type RecordDocument,
  type RecordVisibility,
  type SearchHit,
  type SearchLimits,
  type SearchQuery,
  type SearchCursor,
  type SearchResult,
  type SearchViewer,
} from './search-index';
export { EVERYONE_KEY, documentAccessKeys, viewerAccessKeys } from './visibility';
export { decodeSearchCursor, encodeSearchCursor, toRecordsPage, type PageContent, type RecordsPage, type RecordsPageOptions } from './records-page';
export { InProcessSearchIndex, type InProcessSearchIndexOptions } from './in-process-search-index';
export { PostgresSearchIndex, type PostgresSearchIndexOptions } from './postgres-search-index';
export { ElasticsearchSearchIndex, type ElasticsearchSearchIndexOptions } from './elasticsearch-search-index';
