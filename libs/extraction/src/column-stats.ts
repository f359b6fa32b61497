// A column's META statistics (spec STATS entry) from its facts: the counts per kind give its type,
// numbers their MIN, MAX, MEAN and STD, and its share format what of its values shows.
import { dateHistogramOf, topValuesOf } from './column-profile';
import { maskOf, PLAIN, type ColumnPolicy } from './private-columns';
import type { ColumnStats, ColumnType, ExtractionLimits, ExtractOption, ValueKind } from './types';
import { BOOL, DAT, FLT, INT, TIM, VALUE_KINDS } from './value-kinds';

/** A share of non-numbers this small still leaves a column numeric (with an error naming them). */
const NUMERIC_TOLERANCE = 0.1;

/**
 * What a column's statistics are made of, whether a ColumnAccumulator saw every value or a database
 * answered aggregate queries for it (SQL tables): both describe columns with statsOf.
 */
export interface ColumnFacts {
  rows: number;
  missing: number;
  /** Non-missing values per kind, in the order integer, float, boolean, date, time, text. */
  kindCounts: ArrayLike<number>;
  /** Numeric values (integer and float kinds): how many, and their MIN, MAX, MEAN and sample STD. */
  n: number;
  min: number;
  max: number;
  mean: number;
  std: number;
  /** Most digits after the decimal point of a numeric value (at most 6), for synthetic samples. */
  decimals: number;
  /** The first non-numeric value (cut to 40 characters), named when a numeric column has some. */
  firstNonNumeric: string | null;
  distinct: number;
  distinctExact: boolean;
  /** The first rows' display texts ('' when missing), at most 5. */
  formatted: string[];
  /** Real values, for extractOption 'samples'. */
  samples: string[];
  /** The column's most frequent meaningful words. */
  words: string[];
  /** Exact counts of its non-numeric values ([value, count]) while at most VALUE_COUNTS_CAP; null otherwise (and for SQL tables). */
  valueCounts?: Array<[string, number]> | null;
}

/** A column's type from its kinds: numeric if (nearly) all values are numbers, else a kind all share, else text. */
export function typeOf(kindCounts: ArrayLike<number>, nonMissing: number): ColumnType {
  if (nonMissing === 0) return 'empty';
  if (kindCounts[INT] + kindCounts[FLT] >= nonMissing * (1 - NUMERIC_TOLERANCE)) return kindCounts[FLT] > 0 ? 'float' : 'integer';
  for (const kind of [DAT, TIM, BOOL]) if (kindCounts[kind] === nonMissing) return VALUE_KINDS[kind];
  return 'text';
}

function kindsOf(kindCounts: ArrayLike<number>): Partial<Record<ValueKind, number>> {
  const kinds: Partial<Record<ValueKind, number>> = {};
  VALUE_KINDS.forEach((kind, i) => {
    if (kindCounts[i] > 0) kinds[kind] = kindCounts[i];
  });
  return kinds;
}

/** A column's META statistics (spec STATS entry) from its facts, under its share format. */
export function statsOf(facts: ColumnFacts, ctx: { option: ExtractOption; limits: ExtractionLimits }, policy: ColumnPolicy = PLAIN): ColumnStats {
  const nonMissing = facts.rows - facts.missing;
  const type = typeOf(facts.kindCounts, nonMissing);
  const numeric = type === 'integer' || type === 'float';
  const numbers = facts.kindCounts[INT] + facts.kindCounts[FLT];
  const dict = { type, count: nonMissing, distinct: facts.distinct, distinct_exact: facts.distinctExact, kinds: kindsOf(facts.kindCounts) };
  const duplicates = Math.max(0, nonMissing - facts.distinct);
  if (policy.format === 'mask') {
    // A masked column: header, type and counts, but no value. Numbers keep MIN, MAX, MEAN and STD
    // only when the owner listed the column in the summary list.
    const summary = numeric && policy.summary;
    const masks = facts.formatted.map(maskOf);
    return {
      MIN: summary ? facts.min : null,
      MAX: summary ? facts.max : null,
      MEAN: summary ? facts.mean : null,
      STD: summary ? facts.std : null,
      FORMATTED_VALS: masks,
      SAMPLE_VALS: summary ? syntheticSamples(facts, type, masks, ctx.limits) : [...new Set(masks.filter((m) => m !== ''))].slice(0, ctx.limits.maxSamples),
      DUPLICATE_VALS: duplicates,
      MISSING_VALS: facts.missing,
      WORDSET: [],
      ERRORS: numeric && numbers < nonMissing ? [`${nonMissing - numbers} of ${nonMissing} values are not numbers`] : [],
      DICT: dict,
    };
  }
  const errors: string[] = [];
  if (numeric && numbers < nonMissing) {
    errors.push(
      `${nonMissing - numbers} of ${nonMissing} values are not numbers (first: "${facts.firstNonNumeric ?? ''}"); MIN, MAX, MEAN and STD use the ${numbers} numbers`,
    );
  }
  return {
    MIN: numeric ? facts.min : null,
    MAX: numeric ? facts.max : null,
    MEAN: numeric ? facts.mean : null,
    STD: numeric ? facts.std : null,
    FORMATTED_VALS: facts.formatted,
    SAMPLE_VALS: ctx.option === 'samples' ? facts.samples : syntheticSamples(facts, type, facts.formatted, ctx.limits),
    DUPLICATE_VALS: duplicates,
    MISSING_VALS: facts.missing,
    WORDSET: type === 'text' ? facts.words : [],
    ERRORS: errors,
    DICT: dict,
    ...distributionOf(facts, type, policy),
  };
}

/** TOP_VALUES of a plain non-numeric column of few enough distinct values, and a date column's HISTOGRAM. */
function distributionOf(facts: ColumnFacts, type: ColumnType, policy: ColumnPolicy): Pick<ColumnStats, 'TOP_VALUES' | 'HISTOGRAM'> {
  const counts = facts.valueCounts;
  if (!counts || counts.length === 0 || policy.format !== 'plain' || policy.hash) return {};
  if (type !== 'text' && type !== 'boolean' && type !== 'date' && type !== 'time') return {};
  const histogram = type === 'date' ? dateHistogramOf(counts) : undefined;
  return { TOP_VALUES: topValuesOf(counts), ...(histogram && { HISTOGRAM: histogram }) };
}

/**
 * 'metadata' shows the shape of the data without any real cell: numeric columns get evenly spaced
 * numbers between MIN and MAX, other columns character masks (X upper, x lower, 9 digit) of their
 * first values, one per value.
 */
function syntheticSamples(facts: ColumnFacts, type: ColumnType, first: string[], limits: ExtractionLimits): string[] {
  if (type === 'empty') return [];
  if (type === 'integer' || type === 'float') {
    const format = (x: number) => (type === 'integer' ? String(Math.round(x)) : x.toFixed(Math.max(1, facts.decimals)));
    const count = Math.min(5, limits.maxSamples);
    if (facts.min === facts.max || count < 2) return [format(facts.min)];
    return Array.from({ length: count }, (_, i) => format(facts.min + ((facts.max - facts.min) * i) / (count - 1)));
  }
  // One mask per non-missing first value, repeats kept: the Sample Values tab shows a row per sample,
  // as it does for numbers (deduplicated masks left a text column's rows 2-5 blank).
  return first
    .filter((v) => v !== '')
    .map(maskOf)
    .slice(0, Math.min(5, limits.maxSamples));
}
