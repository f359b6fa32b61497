// What the benchmarks share: a seeded random generator, sizes in MiB and the writer of their docs/benchmarks.md sections.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The extraction library's seeded generator, so a benchmark always works on the same data. */
export { seededRandom } from '@dc/extraction';

/** Bytes in MiB, rounded, for the benchmarks' tables. */
export const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

export const BENCHMARKS_DOC = path.resolve(__dirname, '../../docs/benchmarks.md');

/** The start and end markers of a benchmark's own section, e.g. `bench:search:1000000`. */
export function sectionMarkers(name: string): { start: string; end: string } {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/**
 * Replaces the section between the markers of `name` in docs/benchmarks.md with `text` (which holds
 * both markers), or appends it; every other section stays as it is.
 */
export function writeBenchmarkSection(name: string, text: string, file = BENCHMARKS_DOC): void {
  const { start, end } = sectionMarkers(name);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\nEach benchmark writes its own section; see `tools/bench/`.\n';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? current.slice(0, from) + text + current.slice(to + end.length) : `${current.trimEnd()}\n\n${text}\n`;
  writeFileSync(file, next);
}
