// The kinds of a cell's value, numbered as the column statistics count them: column.ts classifies a
// cell's text, ascii-cells.ts its bytes, column-stats.ts turns the counts per kind into a type.
import type { ValueKind } from './types';

/** The kinds of values, in the order of their codes (and of ColumnFacts.kindCounts). */
export const VALUE_KINDS: readonly ValueKind[] = ['integer', 'float', 'boolean', 'date', 'time', 'text'];
/** Kind codes: indexes into VALUE_KINDS. */
export const INT = 0;
export const FLT = 1;
export const BOOL = 2;
export const DAT = 3;
export const TIM = 4;
export const TXT = 5;

/** Texts (lower-cased, trimmed) that stand for a missing value, besides the empty text. */
export const MISSING_TOKENS: ReadonlySet<string> = new Set(['na', 'n/a', 'null', 'none', 'nan', '?', '""', '#n/a']);
