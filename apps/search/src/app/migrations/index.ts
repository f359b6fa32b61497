import { SearchInitial1763780000000 } from './1763780000000-search-initial';
import { SearchRecordVersions1763900000000 } from './1763900000000-search-record-versions';
import { SearchRequestStatuses1764300000000 } from './1764300000000-search-request-statuses';
import { SearchProjectKeys1767225600001 } from './1767225600001-search-project-keys';

/** The search service's schema migrations, in order (the service module and the reindex command run them). */
export const SEARCH_MIGRATIONS = [
  SearchInitial1763780000000,
  SearchRecordVersions1763900000000,
  SearchRequestStatuses1764300000000,
  SearchProjectKeys1767225600001,
];
