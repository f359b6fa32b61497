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

const numberFormats = new Map<string, Intl.NumberFormat>();
const groupedFormat = (decimals: number, grouping: boolean) => {
  const key = `${decimals}${grouping}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat('en', { maximumFractionDigits: decimals, useGrouping: grouping })));
  return format;
};

/**
 * Numbers for people: digits grouped from 10,000 and as many decimals as the size warrants (none
 * from 1000, 2 from 10, 3 from 1, else 4), so 105435039507024.0938 reads "105,435,039,507,024" and 0.12345 "0.1235";
 * very large or very small ones as "1.054 × 10^18". The exact value goes in a title (exactNumber).
 */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const size = Math.abs(value);
  if (size >= 1e15 || (size > 0 && size < 1e-4)) {
    const [mantissa, exponent] = value.toExponential(3).split('e');
    return `${mantissa.replace(/\.?0+$/, '')} × 10^${Number(exponent)}`;
  }
  // Four-digit numbers stay ungrouped, so years read as years (1960, not 1,960).
  return groupedFormat(size >= 1000 ? 0 : size >= 10 ? 2 : size >= 1 ? 3 : 4, size >= 10_000).format(value);
}

/** A number exactly as stored, for a title beside its formatted text. */
export const exactNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** Spec section 9: merge and relation scores rounded to 2 decimals. */
export const formatScore = (score: number) => score.toFixed(2);
