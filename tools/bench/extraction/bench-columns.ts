// The generated CSV's columns and the figures compared per numeric column: imported by the benchmark
// children, so it imports nothing (see csv-child.ts).
export const BENCH_COLUMNS = ['id', 'amount', 'quantity', 'score', 'category', 'comment', 'created'] as const;
export const NUMERIC = ['id', 'amount', 'quantity', 'score'];

export interface ColumnFigures {
  count: number;
  min: number;
  max: number;
  mean: number;
  std: number;
}
