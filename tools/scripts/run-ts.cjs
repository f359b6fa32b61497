// Runs a TypeScript entry point without a separate TypeScript runner: .ts files are compiled on
// require with the same swc options as the build and tests (path aliases such as @dc/contracts).
// Usage: node tools/scripts/run-ts.cjs path/to/script.ts [args...]
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options.cjs');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcOptions(), filename, swcrc: false });
  module._compile(code, filename);
};

const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: node tools/scripts/run-ts.cjs <script.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(script), ...args];
require(path.resolve(script));
