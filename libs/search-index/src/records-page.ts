/** The API's list shape (ARCHITECTURE section 5). */
export interface RecordsPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
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
export function toRecordsPage<T>(result: { count: number; results: T[] }, options: RecordsPageOptions): RecordsPage<T> {
  const { page, pageSize, baseUrl } = options;
  const lastPage = Math.max(1, Math.ceil(result.count / pageSize));
  const link = (target: number) => {
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(baseUrl);
    const url = new URL(baseUrl, PLACEHOLDER_ORIGIN);
    url.searchParams.set('page', String(target));
    url.searchParams.set('page_size', String(pageSize));
    return relative ? url.toString().slice(PLACEHOLDER_ORIGIN.length) : url.toString();
  };
  return {
    count: result.count,
    next: page < lastPage ? link(page + 1) : null,
    // Past the end, "previous" leads back to the last page that has results.
    previous: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
    results: result.results,
  };
}
