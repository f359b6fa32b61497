import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom, writeBenchmarkSection } from './bench-support';

describe('benchmark support', () => {
  it('replaces only its own section of the results file, or appends it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-doc-'));
    const file = path.join(dir, 'benchmarks.md');
    try {
      writeFileSync(file, '# Benchmarks\n\n<!-- bench:a:start -->\nold a\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nb\n<!-- bench:b:end -->\n');
      writeBenchmarkSection('bench:a', '<!-- bench:a:start -->\nnew a\n<!-- bench:a:end -->', file);
      writeBenchmarkSection('bench:c', '<!-- bench:c:start -->\nc\n<!-- bench:c:end -->', file);
      expect(readFileSync(file, 'utf8')).toBe(
        '# Benchmarks\n\n<!-- bench:a:start -->\nnew a\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nb\n<!-- bench:b:end -->\n\n<!-- bench:c:start -->\nc\n<!-- bench:c:end -->\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the same numbers for the same seed, in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(values[0]);
  });
});
