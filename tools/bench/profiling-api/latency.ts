// Pure helpers of the profiling-api benchmark: latency figures of a phase and the starvation verdict.

export interface LatencyFigures {
  requests: number;
  /** Requests answered per second of the phase. */
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The sample at quantile q (0..1) of ascending samples, nearest rank (p99 of 100 samples is the 99th). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Latency figures (ms) of the requests answered during a phase of `seconds`. */
export function latencyFigures(samplesMs: readonly number[], seconds: number): LatencyFigures {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    perSecond: sorted.length / seconds,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}

/** The bar: during profiling, a p99 more than 3 times the idle one, or above 100 ms, is starvation. */
export const STARVATION = { ratio: 3, p99Ms: 100 };

/** How the p99 during profiling compares with the idle peer's, in words for the report. */
export function starvationVerdict(idle: LatencyFigures, during: LatencyFigures): { starved: boolean; ratio: number; words: string } {
  const ratio = during.p99 / idle.p99;
  const starved = ratio > STARVATION.ratio || during.p99 > STARVATION.p99Ms;
  const words = `p99 ${during.p99.toFixed(1)} ms during profiling against ${idle.p99.toFixed(1)} ms in the quieter idle phase (${ratio.toFixed(1)}×): ${starved ? 'starved' : 'not starved'} by the bar of > ${STARVATION.ratio}× or > ${STARVATION.p99Ms} ms`;
  return { starved, ratio, words };
}
