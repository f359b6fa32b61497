// The README's test command: builds, type-checks, lints, checks formatting, then runs every jest project (unit,
// infrastructure contract suites, distributed-mode proof, browser tests) and prints one summary
// line. With CI=true a skipped infrastructure suite fails (see libs/testing/src/infra.ts).
import './require-node.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Each tool runs on this very Node (the project's Node 24), whatever `node` is first on PATH.
const tools = {
  jest: 'jest/bin/jest.js',
  tsc: 'typescript/bin/tsc',
  eslint: 'eslint/bin/eslint.js',
  nx: 'nx/dist/bin/nx.js',
  prettier: 'prettier/bin/prettier.cjs',
};
const tool = (name) => [path.join(root, 'node_modules', tools[name])];
const step = (title, command, args) => {
  console.log(`\n== ${title}`);
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
};
const extraArgs = process.argv.slice(2);

try {
  if (!process.env.SKIP_BUILD) step('build', process.execPath, ['tools/scripts/build.mjs']);
  if (!process.env.SKIP_CHECKS) {
    step('typecheck', process.execPath, [...tool('tsc'), '-p', 'tsconfig.json', '--noEmit']);
    step('typecheck web', process.execPath, [...tool('tsc'), '-p', 'apps/web/tsconfig.json', '--noEmit']);
    step('nx project graph', process.execPath, [...tool('nx'), 'show', 'projects']);
    step('lint (with Nx module boundaries)', process.execPath, [...tool('eslint'), 'apps', 'libs', 'tools', 'deploy', '--max-warnings', '0']);
    step('format (npm run format writes it)', process.execPath, [...tool('prettier'), '--check', '--log-level', 'warn', '.']);
  }
} catch {
  console.error('\n0 passed, 1 failed');
  process.exit(1);
}

mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
const report = path.join(root, 'test-artifacts/jest-results.json');
console.log('\n== jest');
const jest = spawnSync(process.execPath, [...tool('jest'), '--ci', '--maxWorkers=2', '--json', `--outputFile=${report}`, ...extraArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim() },
});
let summary = '0 passed, 1 failed';
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  const failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
  summary = `${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped`;
} catch {
  // jest did not write a report: the summary stays a failure
}
console.log(`\njest: ${summary}`);
process.exit(jest.status ?? 1);
