// Writes docs/asyncapi.yaml and the topic table of docs/operations.md from the event contracts, through the repo's TypeScript loader.
const path = require('node:path');

process.argv.splice(2, 0, path.join(__dirname, 'cli.ts'));
require('../scripts/run-ts.cjs');
