/** Display rules of spec section 9 shared by the screens (truncation, sizes, dates, numbers). */

/** Cuts text at `limit` characters, marking the cut with an ellipsis. */
export function truncate(text: string | null | undefined, limit: number): string {
  const value = text ?? '';
  return value.length > limit ? `${value.slice(0, limit)}…` : value;
}

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'];

/** Bytes to TB in steps of 1024, at most 2 decimals, e.g. 1536 -> "1.5 KB"; N/A when missing. */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : String(Math.round(value * 100) / 100);
  return `${text} ${UNITS[unit]}`;
}

/** YYYY-MM-DD (UTC, so everyone sees the same date and date-only values stay put), or N/A when missing. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toISOString().slice(0, 10);
}

/** Numbers in tables: at most 4 decimals. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

/** Spec section 9: merge and relation scores rounded to 2 decimals. */
export const formatScore = (score: number) => score.toFixed(2);
