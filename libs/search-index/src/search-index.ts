/** Who may see a record: PR = owner's organisation, EV = everyone, CU = PR plus listed users and organisations. */
export type RecordVisibility = 'PR' | 'EV' | 'CU';

/** The search service's projection of a record: what the Workspace list filters, ranks and shows. */
export interface RecordDocument {
  id: string;
  name: string;
  altName?: string;
  description: string;
  /** Column headers of the record's files. */
  headers: string[];
  /** The record's word set. */
  words: string[];
  ownerId: string;
  /** The owner's organisation. */
  organisationId: string;
  visibility: RecordVisibility;
  sharedWithUserIds: string[];
  sharedWithOrganisationIds: string[];
  /** Seen by its owner alone, whatever its visibility: a derivative of data shared with its maker only (lineage). */
  ownerOnly?: boolean;
  /** Projects (groups) the record belongs to. */
  groupIds: string[];
  /** ISO 8601 timestamps; returned exactly as given. */
  createdAt: string;
  changedAt: string;
  /** Everything else a record card shows, stored and returned as-is, never searched. */
  card: Record<string, unknown>;
}

export interface SearchViewer {
  userId: string;
  organisationId: string;
}

export interface SearchQuery {
  text?: string;
  /** null = anonymous visitor. */
  viewer: SearchViewer | null;
  /** 'own' = only the records the viewer owns. */
  view: 'all' | 'own';
  /** Only records in this project. */
  groupId?: string;
  /**
   * "Find similar datasets": the id of a reference record. Results are the records most related to
   * it (sharing its name words, headers and word set), best first, the reference itself left out;
   * `text` is then ignored. A reference the viewer may not see (or that does not exist) gives an
   * empty result, so nothing about it leaks.
   */
  relatedTo?: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  /**
   * Search-after (keyset) paging: the last result of the previous page (page - 1) of this same
   * search. An adapter that can seek by it reads on from there instead of counting past every
   * earlier result; one that cannot uses `page`, so both give the page the ranking has there.
   */
  after?: SearchCursor;
}

/** Where a result stands in a ranking: its score (none without text), then newest change, then id. */
export interface SearchCursor {
  score: number | null;
  /** ISO 8601, as the result's changedAt. */
  changedAt: string;
  id: string;
}

export type SearchHit = RecordDocument & { score?: number };

export interface SearchResult {
  /**
   * How many records the viewer may see match, not just this page. Exact up to the adapter's
   * count limit (1,000 unless configured); when more match, counting stops there: `count` is the
   * limit and `countCapped` is true (read it as "at least"). Counting further would cost time in
   * proportion to the matches, whatever the page.
   */
  count: number;
  countCapped: boolean;
  /** Whether another page has results (within the result window). */
  hasMore: boolean;
  results: SearchHit[];
}

/** Limits every adapter takes, so each answer costs a bounded amount of work. */
export interface SearchLimits {
  /** Counting stops after this many matches (default 1,000). */
  countLimit?: number;
  /**
   * Only the first this-many results of a search can be paged to (default 10,000, as
   * Elasticsearch's index.max_result_window); a page beyond it is empty.
   */
  resultWindow?: number;
}

export const DEFAULT_COUNT_LIMIT = 1_000;
export const DEFAULT_RESULT_WINDOW = 10_000;
export const EMPTY_RESULT: SearchResult = Object.freeze({ count: 0, countCapped: false, hasMore: false, results: [] }) as SearchResult;

/** Which slice of the ranking a query asks for, cut at the result window; `limit` 0 means beyond it. */
export function pageSlice(query: Pick<SearchQuery, 'page' | 'pageSize'>, resultWindow: number): { offset: number; limit: number } {
  const offset = (query.page - 1) * query.pageSize;
  return { offset, limit: Math.max(0, Math.min(query.pageSize, resultWindow - offset)) };
}

export function resolveLimits(limits: SearchLimits): Required<SearchLimits> {
  const countLimit = limits.countLimit ?? DEFAULT_COUNT_LIMIT;
  const resultWindow = limits.resultWindow ?? DEFAULT_RESULT_WINDOW;
  for (const [name, value] of Object.entries({ countLimit, resultWindow })) {
    if (!Number.isInteger(value) || value < 1) throw new InvalidSearchInputError(`${name} must be a positive integer, got ${value}`);
  }
  return { countLimit, resultWindow };
}

/** At most this many of a reference record's terms relate it to others (name words come first). */
export const MAX_RELATED_TERMS = 64;

export const RECORD_VISIBILITIES: readonly RecordVisibility[] = ['PR', 'EV', 'CU'];
export const MAX_PAGE_SIZE = 1000;
/** Longer texts are cut: they add nothing to ranking but cost query time. */
export const MAX_SEARCH_TEXT_LENGTH = 256;

/** Background work of an adapter that failed and has not succeeded since: what readiness reports. */
export interface BackgroundFailure {
  /** What failed, e.g. `snapshot` (writing a snapshot of the in-process memory) or `rebuild`. */
  task: string;
  /** When, ISO 8601. */
  at: string;
  message: string;
}

/**
 * The search index port (also its NestJS injection token). Visibility is enforced inside the
 * query of every adapter, so `count` and `results` only ever cover what the viewer may see.
 */
export abstract class SearchIndex {
  /** Creates the schema or index if missing; safe to call repeatedly and concurrently. */
  abstract init(): Promise<void>;
  /** Inserts or fully replaces documents by id; within one call the last document of an id wins. */
  abstract upsert(docs: RecordDocument[]): Promise<void>;
  /** Removes documents by id; unknown ids are ignored. */
  abstract remove(ids: string[]): Promise<void>;
  abstract search(query: SearchQuery): Promise<SearchResult>;
  abstract get(id: string): Promise<RecordDocument | null>;
  /** The documents of these ids that exist, in one round trip (order not guaranteed). */
  abstract getMany(ids: string[]): Promise<RecordDocument[]>;
  /** Removes every document. */
  abstract clear(): Promise<void>;
  /** Number of documents in the index, whoever may see them. */
  abstract count(): Promise<number>;
  abstract close(): Promise<void>;
  /** Failures of the adapter's background work not followed by a success since; none for an adapter without such work. */
  backgroundFailures(): BackgroundFailure[] {
    return [];
  }
  /**
   * Why the adapter cannot yet answer searches from its index (the in-process one loading its
   * memory at start: a search would wait for it), or null once it can: what readiness reports, so
   * a load balancer keeps sending searches to a replica that answers. Null at once for an adapter
   * whose index lives in its server.
   */
  notReady(): string | null {
    return null;
  }
}

export class InvalidSearchInputError extends Error {
  override readonly name = 'InvalidSearchInputError';
}

/** Trimmed, whitespace-collapsed, length-capped search text; '' means "no text". */
export function normalizeSearchText(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_TEXT_LENGTH).trim();
}

export function assertValidQuery(query: SearchQuery): void {
  if (!Number.isInteger(query.page) || query.page < 1) throw new InvalidSearchInputError(`page must be an integer >= 1, got ${query.page}`);
  if (!Number.isInteger(query.pageSize) || query.pageSize < 1 || query.pageSize > MAX_PAGE_SIZE) {
    throw new InvalidSearchInputError(`pageSize must be an integer between 1 and ${MAX_PAGE_SIZE}, got ${query.pageSize}`);
  }
  if (query.view !== 'all' && query.view !== 'own') throw new InvalidSearchInputError(`view must be 'all' or 'own', got ${String(query.view)}`);
  if (query.viewer && (!query.viewer.userId || !query.viewer.organisationId)) throw new InvalidSearchInputError('viewer needs a userId and an organisationId');
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The terms a reference record is related to others by: the words of its name and alternate name,
 * then its headers, then its word set; lower-cased, letters and digits only, each once, capped.
 */
export function relatedTerms(doc: Pick<RecordDocument, 'name' | 'altName' | 'headers' | 'words'>): string[] {
  const terms = new Set<string>();
  for (const text of [doc.name, doc.altName ?? '', ...(doc.headers ?? []), ...(doc.words ?? [])]) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 2) continue;
      terms.add(word);
      if (terms.size === MAX_RELATED_TERMS) return [...terms];
    }
  }
  return [...terms];
}

/** Validates documents and keeps the last one of each id, so a batch never conflicts with itself. */
export function prepareDocuments(docs: RecordDocument[]): RecordDocument[] {
  const byId = new Map<string, RecordDocument>();
  for (const doc of docs) {
    if (typeof doc.id !== 'string' || doc.id === '') throw new InvalidSearchInputError('a record document needs an id');
    if (!RECORD_VISIBILITIES.includes(doc.visibility)) throw new InvalidSearchInputError(`record ${doc.id}: unknown visibility ${String(doc.visibility)}`);
    for (const field of ['createdAt', 'changedAt'] as const) {
      // An explicit offset keeps PostgreSQL (session time zone) and Elasticsearch (UTC) in agreement.
      if (!ISO_TIMESTAMP.test(String(doc[field])) || Number.isNaN(Date.parse(doc[field]))) {
        throw new InvalidSearchInputError(`record ${doc.id}: ${field} is not an ISO 8601 timestamp with offset: ${String(doc[field])}`);
      }
    }
    byId.delete(doc.id);
    byId.set(doc.id, doc);
  }
  return [...byId.values()];
}

/** Splits work into batches so one upsert never becomes one huge statement or request. */
export function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
