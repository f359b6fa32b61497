/** The highest page a list call accepts: the offset stays an integer PostgreSQL takes, and a page past the end is empty anyway. */
export const MAX_PAGE = 1_000_000;

export interface PageSizes {
  size: number;
  max: number;
}

/** page and page_size of a list call; nonsense falls back to the defaults, and huge numbers are capped. */
export function pageOf(query: { page?: unknown; page_size?: unknown }, sizes: PageSizes = { size: 100, max: 100 }): { page: number; pageSize: number; offset: number } {
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(String(query.page ?? '1'), 10) || 1));
  const pageSize = Math.min(sizes.max, Math.max(1, Number.parseInt(String(query.page_size ?? sizes.size), 10) || sizes.size));
  return { page, pageSize, offset: (page - 1) * pageSize };
}
