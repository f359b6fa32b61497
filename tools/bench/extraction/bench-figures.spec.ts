import { benchRows, childAnswer, csvLine, median, medianBy, PlainFigures, workbookCells, worstDifference } from './bench-figures';

describe('extraction benchmark figures', () => {
  it('computes count, min, max, mean and sample std', () => {
    const plain = new PlainFigures();
    [2, 4, 4, 4, 5, 5, 7, 9].forEach((x) => plain.add(x));
    const figures = plain.figures();
    expect(figures).toMatchObject({ count: 8, min: 2, max: 9, mean: 5 });
    expect(figures.std).toBeCloseTo(Math.sqrt(32 / 7), 12); // squared deviations 9+1+1+1+0+0+4+16 over n - 1
    const one = new PlainFigures();
    one.add(-3.5);
    expect(one.figures()).toEqual({ count: 1, min: -3.5, max: -3.5, mean: -3.5, std: 0 });
    expect(new PlainFigures().figures()).toEqual({ count: 0, min: NaN, max: NaN, mean: NaN, std: NaN });
  });

  it('reports the largest relative difference over the columns asked for, ignoring missing figures', () => {
    const a = { x: { count: 10, min: 1, max: 100, mean: 50, std: 2 }, y: { count: 5, min: 0, max: 1, mean: 0.5, std: NaN } };
    const b = { x: { count: 10, min: 1, max: 100, mean: 50.5, std: 2 }, y: { count: 4, min: 0, max: 1, mean: 0.5, std: 0.3 } };
    expect(worstDifference(a, b, ['x'])).toBeCloseTo(0.5 / 50.5, 12);
    expect(worstDifference(a, b)).toBeCloseTo(1 / 5, 12);
    expect(worstDifference(a, { x: a.x })).toBe(0); // y is only on one side
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    const runs = [
      { cpu: 7, id: 'a' },
      { cpu: 5, id: 'b' },
      { cpu: 9, id: 'c' },
      { cpu: 6, id: 'd' },
    ];
    expect(medianBy(runs.slice(0, 3), (r) => r.cpu).id).toBe('a');
    expect(medianBy(runs, (r) => r.cpu).id).toBe('d');
    expect(() => medianBy([], (r: number) => r)).toThrow();
  });

  it('generates the same rows for the same seed, as CSV lines and as workbook cells', () => {
    const take = (seed: number, n: number) => {
      const rows = benchRows(seed);
      return Array.from({ length: n }, () => rows.next().value);
    };
    const rows = take(42, 500);
    expect(take(42, 500)).toEqual(rows);
    expect(take(43, 1)[0]).not.toEqual(rows[0]);
    const quoted = rows.find((row) => row.commentHasComma);
    expect(quoted && csvLine(quoted)).toContain(`,"${quoted?.comment}",`);
    expect(rows.some((row) => row.score === '')).toBe(true);
    const missing = rows.find((row) => row.score === '');
    expect(missing && workbookCells(missing)[3]).toBeNull();
    const first = rows.find((row) => !row.commentHasComma && row.score !== '') as (typeof rows)[number];
    expect(csvLine(first).trimEnd().split(',')).toEqual([
      String(first.id),
      first.amount,
      String(first.quantity),
      first.score,
      first.category,
      first.comment,
      first.created,
    ]);
    expect(workbookCells(first)).toEqual([
      first.id,
      Number(first.amount),
      first.quantity,
      Number(first.score),
      first.category,
      first.comment,
      new Date(`${first.created}T00:00:00Z`),
    ]);
  });

  it('reads a child process answer from its last line, null as NaN', () => {
    expect(childAnswer<{ a: number; b: number }>('loading…\n{"a":1,"b":null}\n')).toEqual({ a: 1, b: NaN });
  });
});
