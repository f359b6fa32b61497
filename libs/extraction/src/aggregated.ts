import { withoutCellValues } from './cell-masking';
// Tables that are not files (SQL tables of a connection): described from what the database answers
// to aggregate queries, so rows are not pulled one by one. The statistics are built by statsOf, the
// same function that describes a file's columns, so a table's META has the shape and, for the same
// data, the values of an uploaded CSV's. Private columns apply as they do to files: excluded
// columns are never asked for, hashed ones are hashed as their values arrive (first rows, samples)
// and counted by distinct text, masked ones show masks.
import { classify, isMissingText, truncate } from './column';
import { type ColumnFacts, statsOf } from './column-stats';
import { resolveLimits, withPrivacyNotes } from './extract';
import { ColumnPrivacy, type ColumnPolicy, PLAIN } from './private-columns';
import { ErrorList } from './table';
import type { ExtractionOptions } from './options';
import type { ColumnStats, ExtractionResult, FileTable, ShareFormatEntry } from './types';
import { isMeaningful, keywordsOf, TopWords, words } from './words';

/** What a database answers about one column, over every row of its table. */
export interface ColumnAggregates {
  /** Missing values: NULL, empty or NA-like text (as isMissingText). */
  missing: number;
  /**
   * Non-missing values per kind (integer, float, boolean, date, time, text), classified from their
   * trimmed text as classify() does; a hashed column counts every non-missing value as text.
   */
  kindCounts: [number, number, number, number, number, number];
  /** Over the numeric values (integer and float kinds); ignored for hashed columns. */
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
  /** Most digits after the decimal point of a numeric value, at most 6. */
  decimals: number;
  /** Distinct non-missing values: numbers by value and other values by trimmed text (hashed columns: all by text). */
  distinct: number;
}

/** The queries a table source answers (SQL adapters implement it; tests may use arrays). */
export interface AggregatedTableSource {
  /** Column names in table order. */
  headers: string[];
  rowCount(): Promise<number>;
  aggregates(column: number, options: { hashed: boolean }): Promise<ColumnAggregates>;
  /** The first rows' values of these columns as text (null when NULL), in table order. */
  firstRows(columns: number[], limit: number): Promise<Array<Array<string | null>>>;
  /** Up to `limit` non-missing values of the column as text, picked at random over the table. */
  sampleValues(column: number, limit: number): Promise<string[]>;
  /** The column's most frequent non-missing values as text, with their counts (for word sets). */
  frequentValues(column: number, limit: number): Promise<Array<[string, number]>>;
  /** The first non-missing value that is not a number, if any. */
  firstNonNumeric(column: number): Promise<string | null>;
}

export interface AggregatedTableInput {
  /** The table's name (NAME of META). */
  name: string;
  contentType?: string;
  source: AggregatedTableSource;
}

/** How many distinct values are read to build a text column's word set. */
const FREQUENT_VALUES = 2000;

const cell = (text: string | null): string | null => {
  if (text === null) return null;
  const trimmed = text.trim();
  return isMissingText(trimmed) ? null : trimmed;
};

/**
 * META of a table (spec section 3), asked of its source column by column; masked before access as
 * a file's META is (withoutCellValues), unless options.cellValues is 'raw'.
 */
export async function describeAggregatedTable(input: AggregatedTableInput, options: Omit<ExtractionOptions, 'onInvalid'>): Promise<ExtractionResult> {
  const result = await profileAggregatedTable(input, options);
  return options.cellValues === 'raw' ? result : withoutCellValues(result);
}

async function profileAggregatedTable(input: AggregatedTableInput, options: Omit<ExtractionOptions, 'onInvalid'>): Promise<ExtractionResult> {
  const limits = resolveLimits(options.limits);
  const { source } = input;
  const option = options.extractOption;
  const base = {
    NAME: input.name,
    CONTENT_TYPE: input.contentType ?? 'application/x-sql-table',
    SIZE: null,
    DATE: new Date().toISOString(),
    TYPE: 'table' as const,
    EXTRACT_OPTION: option,
  };
  if (option === 'minimal') return { ...base, STATUS: 'skipped', ERRORS: [] };
  options.signal?.throwIfAborted();
  const privacy = ColumnPrivacy.isActive(options.privateColumns) ? new ColumnPrivacy(options.privateColumns) : undefined;
  const errors = new ErrorList(limits.maxErrors);
  if (source.headers.length > limits.maxColumns) errors.add(`${source.headers.length} columns: only the first ${limits.maxColumns} are described (maxColumns)`);
  const headers = source.headers.slice(0, limits.maxColumns);
  const policies: ColumnPolicy[] = headers.map((header, i) => privacy?.policyFor(header, i) ?? PLAIN);
  const shown = headers.map((_, i) => i).filter((i) => policies[i].format !== 'exclude');

  const rows = await source.rowCount();
  const first = shown.length ? await source.firstRows(shown, Math.min(5, rows)) : [];
  const ctx = { option, limits };
  const stats: Record<string, ColumnStats> = {};
  const columnWordCounts: Array<Array<[string, number]>> = [];
  const formats: ShareFormatEntry[] = [];
  const hashedHeaders: string[] = [];

  for (const [position, index] of shown.entries()) {
    options.signal?.throwIfAborted();
    const policy = policies[index];
    const hashed = policy.hash !== null;
    // A hashed column's values are hashed as they arrive and go no further raw.
    const show = (text: string) => truncate(hashed ? (policy.hash as (t: string) => string)(text) : text, limits.maxCellChars);
    const aggregates = await source.aggregates(index, { hashed });
    const nonMissing = rows - aggregates.missing;
    const numbers = hashed ? 0 : aggregates.kindCounts[0] + aggregates.kindCounts[1];
    const facts: ColumnFacts = {
      rows,
      missing: aggregates.missing,
      kindCounts: hashed ? [0, 0, 0, 0, 0, nonMissing] : aggregates.kindCounts,
      n: numbers,
      min: aggregates.min ?? 0,
      max: aggregates.max ?? 0,
      mean: aggregates.mean ?? 0,
      std: numbers > 1 ? (aggregates.std ?? 0) : 0,
      decimals: aggregates.decimals,
      firstNonNumeric: null,
      distinct: aggregates.distinct,
      distinctExact: true,
      formatted: first.map((row) => {
        const value = cell(row[position]);
        return value === null ? '' : show(value);
      }),
      samples: [],
      words: [],
    };
    const numericWithOthers = numbers > 0 && numbers < nonMissing && numbers >= nonMissing * 0.9;
    if (numericWithOthers) facts.firstNonNumeric = truncate((await source.firstNonNumeric(index)) ?? '', 40);
    if (option === 'samples' && policy.format === 'plain') facts.samples = (await source.sampleValues(index, limits.maxSamples)).map((v) => show(v.trim()));
    // Words of text values count for KEYWORDS in any column, and make WORDSET in a text column.
    if (!hashed && policy.format === 'plain' && aggregates.kindCounts[5] > 0) {
      const columnWords = new TopWords(Math.max(1000, limits.maxWords * 4));
      for (const [value, count] of await source.frequentValues(index, FREQUENT_VALUES)) {
        const text = value.trim();
        if (isMissingText(text) || classify(text, false).kind !== 'text') continue;
        for (const word of words(text)) if (isMeaningful(word)) columnWords.add(word, count);
      }
      facts.words = columnWords.top(limits.maxWords);
      columnWordCounts.push(columnWords.entries());
    }
    stats[String(position)] = statsOf(facts, ctx, policy);
    formats.push({ index: position, format: policy.format as ShareFormatEntry['format'], hash: hashed });
    if (hashed) hashedHeaders.push(headers[index]);
  }
  // KEYWORDS as a file's: the shown headers' words first, then each column's (TableBuilder.addWordsTo).
  const counter = new TopWords(limits.maxWords * 4);
  for (const index of shown) for (const word of words(headers[index])) if (isMeaningful(word)) counter.add(word);
  for (const entries of columnWordCounts) for (const [word, count] of entries) counter.add(word, count);

  const file: FileTable = { HEADERS: shown.map((i) => headers[i]), TOTAL_ROWS: rows, STATS: stats };
  const result: ExtractionResult = {
    ...base,
    STATUS: 'complete',
    FILE: file,
    KEYWORDS: keywordsOf(counter, limits.maxKeywords),
    SAMPLES: option === 'samples' ? 'real' : 'synthetic',
    ...(privacy && { SHARE_FORMATS: formats, ENCRYPTED_COLS: hashedHeaders }),
    ERRORS: errors.list(),
  };
  return withPrivacyNotes(result, { privacy });
}
