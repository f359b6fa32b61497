// Runs hashing.bench.ts through the repo's TypeScript loader (tools/scripts/run-ts.cjs).
//   node_modules/.bin/node tools/bench/hashing/run.cjs [--cells=300000] [--runs=5] [--no-write]
const path = require('node:path');

process.argv.splice(2, 0, path.join(__dirname, 'hashing.bench.ts'));
require('../../scripts/run-ts.cjs');
