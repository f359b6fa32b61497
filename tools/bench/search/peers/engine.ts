import { documentAccessKeys, viewerAccessKeys, type RecordDocument, type SearchHit, type SearchQuery, type SearchViewer } from '@dc/search-index';

/**
 * What the peer benchmark (peers.bench.ts) asks of each search engine: built from the records in
 * memory, persisted to a directory and restored from it, and answering the SearchIndex port's
 * queries (visibility, `own`, page size, deep pages, `after` when it can seek) synchronously.
 */
export interface PeerEngine {
  readonly name: string;
  /** Indexes the records (distinct ids); they may be held by reference. */
  build(records: RecordDocument[]): void;
  search(query: SearchQuery): PeerPage;
  /** Writes what a restart needs into `dir`; returns the bytes of the index and of a separate documents file (0 when none). */
  persist(dir: string): { indexBytes: number; documentsBytes: number };
  /** Loads what persist() wrote (a fresh engine, in a fresh process); returns the seconds of it spent reading a documents file (0 when none). */
  restore(dir: string): number;
  close(): void;
}

/** A results page: as SearchResult, `count` capped at the count limit when `countCapped`. */
export interface PeerPage {
  count: number;
  countCapped: boolean;
  hasMore: boolean;
  hits: SearchHit[];
}

export const COUNT_LIMIT = 1000;
/** The bench's viewer, as restart.bench.ts's: owns every 20th record, sees 10% of them; anonymous sees 5%. */
export const BENCH_VIEWER: SearchViewer = { userId: 'bench-viewer', organisationId: 'bench-viewer-org' };

/** Whether the query's viewer may see the hit (and, for `own`, owns it): the rule of visibility.ts, applied to what came back. */
export function mayView(hit: RecordDocument, query: Pick<SearchQuery, 'viewer' | 'view'>): boolean {
  if (query.view === 'own' && (!query.viewer || hit.ownerId !== query.viewer.userId)) return false;
  const held = new Set(viewerAccessKeys(query.viewer));
  return documentAccessKeys(hit).some((key) => held.has(key));
}

/** The words a text is matched by, as the in-process index tokenizes: lower-cased runs of letters and digits. */
export function words(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word !== ''),
    ),
  ];
}

/** Headers and word set as one text: the third searched field, as the in-process store's `extra`. */
export const extraOf = (doc: RecordDocument) => [...(doc.headers ?? []), ...(doc.words ?? [])].join(' ');

/** Newest change first, then id ascending: the order of the empty query (and ties) in every adapter. */
export function newestFirst(a: RecordDocument, b: RecordDocument): number {
  const ca = Date.parse(a.changedAt);
  const cb = Date.parse(b.changedAt);
  return ca !== cb ? cb - ca : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Oldest change first, then id descending: the order the in-process store loads in (the row number descending is then newest first). */
export function oldestFirst(a: RecordDocument, b: RecordDocument): number {
  return -newestFirst(a, b);
}

/** A page of a fully ranked list, by offset, capped count as the port's. */
export function slicePage(ranked: SearchHit[], query: Pick<SearchQuery, 'page' | 'pageSize'>): PeerPage {
  const offset = (query.page - 1) * query.pageSize;
  return {
    count: Math.min(ranked.length, COUNT_LIMIT),
    countCapped: ranked.length > COUNT_LIMIT,
    hasMore: ranked.length > offset + query.pageSize,
    hits: ranked.slice(offset, offset + query.pageSize),
  };
}

/** pg_trgm-style trigram similarity of two words (padded, shared / union): the typo tiers' measure. */
export function trigramSimilarity(a: string, b: string): number {
  const grams = (word: string) => {
    const padded = `  ${word} `;
    const set = new Set<string>();
    for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  let shared = 0;
  for (const gram of x) if (y.has(gram)) shared++;
  return shared / (x.size + y.size - shared);
}
