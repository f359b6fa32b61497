// A column's distribution for the Statistics tab, from what extraction already keeps: numeric
// columns' histograms and quartiles from the numbers of the column's sketch (sketch.ts: every number
// while at most SKETCH_RESERVOIR, else a seeded uniform sample of them); text, boolean, date and time
// columns' most frequent values, and date columns' histograms, from exact counts of their values
// while a column has at most VALUE_COUNTS_CAP distinct ones (column-figures.ts).
//
// Bins are of equal width between MIN and MAX: a bar's height is then a count, read like any
// histogram, and the axis is the data's own. (Quantile bins have equal counts by construction, so
// they show the spread only through their widths, which people misread.) HISTOGRAM_BINS is small
// and fixed, so that a card stays readable on a phone; integer columns of a narrower range get one
// bin per integer.
import type { Histogram, Quartiles, TopValue } from './types';

/** Bins of a histogram. */
export const HISTOGRAM_BINS = 10;
/** Most frequent values kept per column. */
export const TOP_VALUES_SHOWN = 10;
/** Distinct values counted exactly per column; a column with more gets no TOP_VALUES (it is no category). */
export const VALUE_COUNTS_CAP = 1000;

/** Equal-width edges between min and max: one bin per integer when an integer column's range is narrower than HISTOGRAM_BINS. */
function edgesOf(min: number, max: number, integer: boolean): number[] {
  if (integer && max - min + 1 <= HISTOGRAM_BINS) {
    const bins = max - min + 1;
    return Array.from({ length: bins + 1 }, (_, i) => min - 0.5 + i);
  }
  if (min === max) return [min, max];
  return Array.from({ length: HISTOGRAM_BINS + 1 }, (_, i) => (i === HISTOGRAM_BINS ? max : min + ((max - min) * i) / HISTOGRAM_BINS));
}

function binOf(edges: number[], x: number): number {
  const bins = edges.length - 1;
  if (bins === 1) return 0;
  const i = Math.floor(((x - edges[0]) / (edges[bins] - edges[0])) * bins);
  return Math.min(bins - 1, Math.max(0, i));
}

/** Counts of weighted values in equal-width bins; `scale` turns a sample's counts into the column's. */
function histogramOf(kind: Histogram['kind'], values: Iterable<[number, number]>, min: number, max: number, integer: boolean, scale = 1): Histogram {
  const edges = edgesOf(min, max, integer);
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (const [x, weight] of values) counts[binOf(edges, x)] += weight;
  return { kind, edges, counts: scale === 1 ? counts : counts.map((c) => Math.round(c * scale)), exact: scale === 1 };
}

function quantile(sorted: ArrayLike<number>, level: number): number {
  const position = (sorted.length - 1) * level;
  const low = Math.floor(position);
  const high = Math.min(sorted.length - 1, low + 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/**
 * A numeric column's HISTOGRAM and QUARTILES from its sketch's numbers (`sorted`, ascending, `seen`
 * of them in the column) and its exact MIN and MAX; undefined without numbers.
 */
export function numericProfile(
  sorted: ArrayLike<number>,
  seen: number,
  min: number,
  max: number,
  integer: boolean,
): { HISTOGRAM: Histogram; QUARTILES: Quartiles } | undefined {
  if (sorted.length === 0 || !Number.isFinite(min) || !Number.isFinite(max)) return undefined;
  const exact = seen <= sorted.length;
  const weighted = function* () {
    for (let i = 0; i < sorted.length; i++) yield [sorted[i], 1] as [number, number];
  };
  return {
    HISTOGRAM: histogramOf('number', weighted(), min, max, integer, exact ? 1 : seen / sorted.length),
    QUARTILES: { q1: quantile(sorted, 0.25), median: quantile(sorted, 0.5), q3: quantile(sorted, 0.75), exact },
  };
}

/** The most frequent values, most frequent first, equal counts in the order of their values. */
export function topValuesOf(counts: Iterable<[string, number]>): TopValue[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, TOP_VALUES_SHOWN)
    .map(([value, count]) => ({ value, count }));
}

/** A date column's histogram from the counts of its distinct dates; undefined when none parses. */
export function dateHistogramOf(counts: Iterable<[string, number]>): Histogram | undefined {
  const times: Array<[number, number]> = [];
  let min = Infinity;
  let max = -Infinity;
  for (const [text, count] of counts) {
    const time = Date.parse(/^\d{4}-\d{2}-\d{2} \d/.test(text) ? text.replace(' ', 'T') : text);
    if (!Number.isFinite(time)) continue;
    times.push([time, count]);
    if (time < min) min = time;
    if (time > max) max = time;
  }
  return times.length === 0 ? undefined : histogramOf('date', times, min, max, false);
}
