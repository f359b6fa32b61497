import type { ColumnChoice } from './private-columns';

// Private indexing (spec section 2): what leaves the browser of a CSV. Hashed columns become their
// keyed hashes (fuzzy ones their CLKs), masked ones their character masks, excluded ones nothing; plain ones stay. Missing
// values (empty, NA-like) pass through as they are, so the server counts them as missing, as it
// does for an uploaded file.

const MISSING = new Set(['', 'na', 'n/a', 'null', 'none', 'nan', '?', '""', '#n/a']);

export const isMissing = (text: string): boolean => text.length <= 4 && MISSING.has(text.toLowerCase());

/** Character mask of a value: X for upper-case letters, x for lower-case, 9 for digits (libs/extraction maskOf). */
export const maskOf = (value: string): string =>
  value
    .replace(/\p{Lu}/gu, 'X')
    .replace(/\p{Ll}/gu, 'x')
    .replace(/\p{N}/gu, '9');

export interface RowTransform {
  /** The header row to send: excluded columns left out. */
  header(cells: string[]): string[];
  /** A data row to send. */
  row(cells: string[]): string[];
}

/** The transform of one file's rows under the chosen formats, hashing with `hash` (keyedHasher), fuzzy columns with `clk` (clkEncoder). */
export function rowTransform(choices: ColumnChoice[], hash: (text: string) => string, clk: (text: string) => string = hash): RowTransform {
  const kept = choices.map((c, i) => ({ ...c, i })).filter((c) => c.format !== 'exclude');
  const keepCells = (cells: string[]) => kept.map((c) => cells[c.i] ?? '');
  return {
    header: keepCells,
    row(cells) {
      return kept.map(({ i, hash: hashed, fuzzy, format }) => {
        const cell = cells[i] ?? '';
        if (!hashed && format === 'plain') return cell;
        const text = cell.trim();
        if (isMissing(text)) return cell;
        if (hashed) return fuzzy ? clk(text) : hash(text);
        return maskOf(text);
      });
    },
  };
}
