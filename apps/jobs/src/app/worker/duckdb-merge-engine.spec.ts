import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckdbMergeEngine } from './duckdb-merge-engine';
import { MergeLimitExceeded, type MergeLimits, type MergePlan } from './merge-engine';

/** 2,000 rows under one key, values of 2 and 3 letters: 11 KB, and 4,000,000 rows joined with itself. */
const repeatedKeyCsv = (valueHeader: string) =>
  [`key,${valueHeader}`, ...Array.from({ length: 2000 }, (_, i) => `1,${i < 1000 ? 'ab' : 'abc'}`)].join('\n') + '\n';

/** The DuckDB merge engine's bounds, on files made here (no database, no storage). */
describe('DuckdbMergeEngine limits', () => {
  let dir: string;
  const engine = new DuckdbMergeEngine({ memoryLimit: '512MB', threads: 2 });
  const plan = (limits: MergeLimits, mergeType: MergePlan['mergeType'] = 'horizontal'): MergePlan => ({
    left: { path: path.join(dir, 'left.csv'), name: 'left.csv' },
    right: { path: path.join(dir, 'right.csv'), name: 'right.csv' },
    mergeType,
    pairs: [{ left: 'key', right: 'key' }],
    outputPath: path.join(dir, 'merged.csv'),
    limits,
  });
  const stopped = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MergeLimitExceeded);
    return error as MergeLimitExceeded;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dc-merge-engine-'));
    writeFileSync(path.join(dir, 'left.csv'), repeatedKeyCsv('a'));
    writeFileSync(path.join(dir, 'right.csv'), repeatedKeyCsv('b'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the two 11 KB files join into 4,000,000 rows, and DuckDB stops producing one row past the rows limit', async () => {
    expect(statSync(path.join(dir, 'left.csv')).size).toBeLessThan(11 * 1024);
    expect((await engine.merge(plan({ maxRows: 4_000_000, maxBytes: 1024 ** 3 }))).rows).toBe(4_000_000);
    const error = await stopped(engine.merge(plan({ maxRows: 100_000, maxBytes: 1024 ** 3 })));
    expect(error.limit).toBe('maxRows');
    // COPY counts what it wrote: the LIMIT stopped the join, it did not filter 4,000,000 rows.
    expect(error.produced.rows).toBe(100_001);
  });

  it('interrupts the COPY once the result passes the bytes limit', async () => {
    const error = await stopped(engine.merge(plan({ maxRows: 10_000_000, maxBytes: 1024 * 1024 })));
    expect(error.limit).toBe('maxBytes');
    expect(error.produced.bytes).toBeGreaterThan(1024 * 1024);
  });

  it('bounds a vertical merge too, and writes a result within its limits whole', async () => {
    expect((await stopped(engine.merge(plan({ maxRows: 3999, maxBytes: 1024 ** 3 }, 'vertical')))).produced.rows).toBe(4000);
    // Exactly at the limits passes: 4,000 rows of "1" under the header "key".
    const bytes = 'key\n'.length + 4000 * '1\n'.length;
    expect(await engine.merge(plan({ maxRows: 4000, maxBytes: bytes }, 'vertical'))).toEqual({ rows: 4000, headers: ['key'] });
    expect(readFileSync(path.join(dir, 'merged.csv'), 'utf8')).toBe(`key\n${'1\n'.repeat(4000)}`);
  });
});
