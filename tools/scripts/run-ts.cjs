// Runs a TypeScript entry point without a separate TypeScript runner: .ts files are compiled on
// require with the same swc options as the build and tests (register-ts.cjs).
// Usage: node tools/scripts/run-ts.cjs path/to/script.ts [args...]
const path = require('node:path');
require('./register-ts.cjs');

const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: node tools/scripts/run-ts.cjs <script.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(script), ...args];
require(path.resolve(script));
