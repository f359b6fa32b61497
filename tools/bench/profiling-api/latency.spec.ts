import { latencyFigures, quantile, starvationVerdict } from './latency';

describe('profiling-api latency figures', () => {
  it('takes quantiles by nearest rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(hundred, 0.5)).toBe(50);
    expect(quantile(hundred, 0.99)).toBe(99);
    expect(quantile(hundred, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('sorts the samples of a phase and counts requests per second', () => {
    const figures = latencyFigures([30, 10, 20, 40], 2);
    expect(figures).toEqual({ requests: 4, perSecond: 2, p50: 20, p95: 40, p99: 40, max: 40 });
  });

  it('calls a p99 starved when it is over three times the idle one or over 100 ms', () => {
    const phase = (p99: number) => ({ requests: 1, perSecond: 1, p50: 1, p95: 1, p99, max: p99 });
    expect(starvationVerdict(phase(10), phase(25)).starved).toBe(false);
    expect(starvationVerdict(phase(10), phase(31)).starved).toBe(true);
    expect(starvationVerdict(phase(60), phase(101)).starved).toBe(true);
    expect(starvationVerdict(phase(10), phase(31)).ratio).toBeCloseTo(3.1);
  });
});
