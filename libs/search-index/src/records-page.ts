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
}

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/** Wraps one page of results with links to the neighbouring pages (null at either end). */
export function toRecordsPage<T>(result: PageContent<T>, options: RecordsPageOptions): RecordsPage<T> {
  const { page, pageSize, baseUrl } = options;
  const lastPage = Math.max(1, Math.ceil(result.count / pageSize));
  const link = (target: number) => {
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(baseUrl);
    const url = new URL(baseUrl, PLACEHOLDER_ORIGIN);
    url.searchParams.set('page', String(target));
    url.searchParams.set('page_size', String(pageSize));
    return relative ? url.toString().slice(PLACEHOLDER_ORIGIN.length) : url.toString();
  };
  const hasMore = result.hasMore ?? page < lastPage;
  return {
    count: result.count,
    ...(result.countCapped ? { count_capped: true as const } : {}),
    next: hasMore ? link(page + 1) : null,
    // Past the end, "previous" leads back to the last page that has results (a capped count knows no last page).
    previous: page > 1 ? link(result.countCapped ? page - 1 : Math.min(page - 1, lastPage)) : null,
    results: result.results,
  };
}
