import { writeFileSync } from 'node:fs';
import { ASYNCAPI_PATH, renderAsyncApi } from './generate';

/** Writes docs/asyncapi.yaml. Run it with `node tools/asyncapi/cli.cjs`. */
writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
console.log(`asyncapi: wrote ${ASYNCAPI_PATH}`);
