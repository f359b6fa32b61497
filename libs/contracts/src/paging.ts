/** The highest page a list call accepts: the offset stays an integer PostgreSQL takes, and a page past the end is empty anyway. */
export const MAX_PAGE = 1_000_000;

export interface PageSizes {
  size: number;
  max: number;
}

/** page and page_size of a list call; nonsense falls back to the defaults, and huge numbers are capped. */
export function pageOf(
  query: { page?: unknown; page_size?: unknown },
  sizes: PageSizes = { size: 100, max: 100 },
): { page: number; pageSize: number; offset: number } {
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(String(query.page ?? '1'), 10) || 1));
  const pageSize = Math.min(sizes.max, Math.max(1, Number.parseInt(String(query.page_size ?? sizes.size), 10) || sizes.size));
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/**
 * The page of a list that answers 404 "Invalid page." for a page it does not have (the Workspace
 * list, accounts): a whole number from 1, capped at MAX_PAGE like pageOf's (past the end of any
 * list, so it answers as any page past the end); null for anything else.
 */
export function strictPageOf(value: unknown): number | null {
  const page = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN;
  // A run of digits too long for a double is still a whole number, only a huge one.
  if (page === Number.POSITIVE_INFINITY && typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value)) return MAX_PAGE;
  if (!Number.isInteger(page) || page < 1) return null;
  return Math.min(page, MAX_PAGE);
}

/** A list answer `{count, next, previous, results}` (spec section 8); `link(n)` is the address of page n. */
export function listPage<T>(
  results: T[],
  count: number,
  at: { page: number; offset: number },
  link: (page: number) => string,
): { count: number; next: string | null; previous: string | null; results: T[] } {
  return {
    count,
    next: at.offset + results.length < count ? link(at.page + 1) : null,
    previous: at.page > 1 ? link(at.page - 1) : null,
    results,
  };
}
