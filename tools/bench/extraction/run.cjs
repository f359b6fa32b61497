// Runs extraction.bench.ts through the repo's TypeScript loader (tools/scripts/run-ts.cjs).
//   node_modules/.bin/node tools/bench/extraction/run.cjs [--sizes=10,100,1000] [--dir=/tmp/x] [--no-write]
//     [--parts=csv,sheets] [--write=csv,sheets] [--repetitions=7]
const path = require('node:path');

process.argv.splice(2, 0, path.join(__dirname, 'extraction.bench.ts'));
require('../../scripts/run-ts.cjs');
