import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const MAX_LINES = 500;
/** Written by tools, not people (npm run openapi). */
const GENERATED = new Set(['apps/web/src/api/schema.d.ts']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) ? [path.relative(root, full)] : [];
  });
}

it(`no source file a person writes is over ${MAX_LINES} lines (split it by what its parts do)`, () => {
  const files = ['apps', 'libs', 'tools', 'deploy'].flatMap((dir) => sourceFiles(path.join(root, dir)));
  expect(files.length).toBeGreaterThan(500);
  const long = files
    .filter((file) => !GENERATED.has(file))
    .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
