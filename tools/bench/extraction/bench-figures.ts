// What the extraction benchmark's parts share: the seeded rows of its generated files, a plain computation of
// the numeric figures to compare with, and reading a child process's answer.
import { seededRandom } from '../bench-support';

import { BENCH_COLUMNS, type ColumnFigures, NUMERIC } from './bench-columns';

export { BENCH_COLUMNS, type ColumnFigures, NUMERIC };

/** One generated row, its numbers as the CSV writes them (amount with 2 decimals, score with 4 or '' when missing). */
export interface BenchRow {
  id: number;
  amount: string;
  quantity: number;
  score: string;
  category: string;
  comment: string;
  /** 5 % of comments hold a comma (the CSV quotes them). */
  commentHasComma: boolean;
  /** yyyy-mm-dd */
  created: string;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'de', 'pa', 'ri', 'go'];
const CATEGORIES = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'omicron',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
];
const DAY_0 = Date.UTC(2000, 0, 1);

/** The benchmark's rows, always the same for the same seed (the draws are in the order the CSV generator always made them). */
export function* benchRows(seed = 42): Generator<BenchRow, never> {
  const random = seededRandom(seed);
  const vocabulary = Array.from({ length: 400 }, () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''),
  );
  for (let id = 1; ; id++) {
    const words = Array.from({ length: 3 + Math.floor(random() * 6) }, () => vocabulary[Math.floor(random() * vocabulary.length)]);
    const commentHasComma = random() < 0.05;
    const comment = commentHasComma ? `${words[0]}, ${words.slice(1).join(' ')}` : words.join(' ');
    const score = random() < 0.02 ? '' : (random() * 100 - 50).toFixed(4);
    const created = new Date(DAY_0 + (id % 9000) * 86400000).toISOString().slice(0, 10);
    const amount = (random() * 10000).toFixed(2);
    const quantity = Math.floor(random() * 1000);
    yield { id, amount, quantity, score, category: CATEGORIES[Math.floor(random() * 20)], comment, commentHasComma, created };
  }
}

export function csvLine(row: BenchRow): string {
  const comment = row.commentHasComma ? `"${row.comment}"` : row.comment;
  return `${row.id},${row.amount},${row.quantity},${row.score},${row.category},${comment},${row.created}\n`;
}

/** The row as workbook cells: numbers as numbers, a missing score as an empty cell, the date as a Date. */
export function workbookCells(row: BenchRow): Array<number | string | Date | null> {
  return [
    row.id,
    Number(row.amount),
    row.quantity,
    row.score === '' ? null : Number(row.score),
    row.category,
    row.comment,
    new Date(`${row.created}T00:00:00Z`),
  ];
}

/**
 * Count, min, max, mean and sample standard deviation the textbook way: values kept, then a sum and a
 * second pass over the deviations (the library keeps running figures instead, Welford's way).
 */
export class PlainFigures {
  private readonly values: number[] = [];

  add(x: number): void {
    this.values.push(x);
  }

  figures(): ColumnFigures {
    const n = this.values.length;
    if (n === 0) return { count: 0, min: NaN, max: NaN, mean: NaN, std: NaN };
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (const x of this.values) {
      sum += x;
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    const mean = sum / n;
    let squares = 0;
    for (const x of this.values) squares += (x - mean) ** 2;
    return { count: n, min, max, mean, std: n > 1 ? Math.sqrt(squares / (n - 1)) : 0 };
  }
}

export function relativeDifference(a: number, b: number): number {
  if (a === b || Number.isNaN(a) || Number.isNaN(b)) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), Number.MIN_VALUE);
}

/** Largest relative difference between two sets of column figures, over the columns of `names` both have. */
export function worstDifference(a: Record<string, ColumnFigures>, b: Record<string, ColumnFigures>, names = Object.keys(a)): number {
  let worst = 0;
  for (const name of names) {
    if (!a[name] || !b[name]) continue;
    for (const key of ['count', 'min', 'max', 'mean', 'std'] as const) worst = Math.max(worst, relativeDifference(a[name][key], b[name][key]));
  }
  return worst;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The item whose `key` is the median one (of an even count, the lower middle). */
export function medianBy<T>(items: T[], key: (item: T) => number): T {
  if (items.length === 0) throw new Error('no items');
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor((items.length - 1) / 2)];
}

/** A child's answer: the last line of its stdout, as JSON; JSON writes NaN as null, so null reads back as NaN. */
export function childAnswer<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').pop() as string, (_key, value: unknown) => (value === null ? NaN : value)) as T;
}
