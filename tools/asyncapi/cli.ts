import { readFileSync, writeFileSync } from 'node:fs';
import { ASYNCAPI_PATH, renderAsyncApi } from './generate';
import { OPERATIONS_PATH, withTopicTable } from './topics-table';

/** Writes docs/asyncapi.yaml and the topic table of docs/operations.md. Run it with `node tools/asyncapi/cli.cjs`. */
writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
console.log(`asyncapi: wrote ${ASYNCAPI_PATH}`);
writeFileSync(OPERATIONS_PATH, withTopicTable(readFileSync(OPERATIONS_PATH, 'utf8')));
console.log(`asyncapi: wrote the topic table of ${OPERATIONS_PATH}`);
