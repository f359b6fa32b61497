import type { SearchCursor } from './search-index';

/** The API's list shape (ARCHITECTURE section 5). */
export interface RecordsPage<T> {
  count: number;
  /** Present (true) only when counting stopped at the count limit: `count` then means "at least". */
  count_capped?: true;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** One page as the index answered it; `hasMore` (when known) decides "next" instead of the count. */
export interface PageContent<T> {
  count: number;
  countCapped?: boolean;
  hasMore?: boolean;
  results: T[];
}

export interface RecordsPageOptions {
  /** The URL of the list as requested, absolute or path-only; its other query parameters are kept. */
  baseUrl: string;
  page: number;
  pageSize: number;
  /** The search-after cursor of the next page (its last result's key), carried by the `next` link. */
  nextCursor?: string;
}

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/** Wraps one page of results with links to the neighbouring pages (null at either end). */
export function toRecordsPage<T>(result: PageContent<T>, options: RecordsPageOptions): RecordsPage<T> {
  const { page, pageSize, baseUrl } = options;
  const lastPage = Math.max(1, Math.ceil(result.count / pageSize));
  const link = (target: number, cursor?: string) => {
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(baseUrl);
    const url = new URL(baseUrl, PLACEHOLDER_ORIGIN);
    url.searchParams.delete('cursor');
    url.searchParams.set('page', String(target));
    url.searchParams.set('page_size', String(pageSize));
    // The page number stays: it places the page in the result window and works without the cursor.
    if (cursor) url.searchParams.set('cursor', cursor);
    return relative ? url.toString().slice(PLACEHOLDER_ORIGIN.length) : url.toString();
  };
  const hasMore = result.hasMore ?? page < lastPage;
  return {
    count: result.count,
    ...(result.countCapped ? { count_capped: true as const } : {}),
    next: hasMore ? link(page + 1, options.nextCursor) : null,
    // Past the end, "previous" leads back to the last page that has results (a capped count knows no last page).
    previous: page > 1 ? link(result.countCapped ? page - 1 : Math.min(page - 1, lastPage)) : null,
    results: result.results,
  };
}

/** A search cursor as a URL-safe token: the last result's score, change time and id. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.score, cursor.changedAt, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor in a token, or null when it is not one (a client's own or damaged token). */
export function decodeSearchCursor(token: string): SearchCursor | null {
  if (token.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3) return null;
    const [score, changedAt, id] = value as unknown[];
    if (!(score === null || (typeof score === 'number' && Number.isFinite(score)))) return null;
    if (typeof changedAt !== 'string' || Number.isNaN(Date.parse(changedAt)) || typeof id !== 'string' || id === '') return null;
    return { score, changedAt, id };
  } catch {
    return null;
  }
}
