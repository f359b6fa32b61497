// Writes docs/openapi.json from the controllers' zod contracts, then the web client's types
// (apps/web/src/api/schema.d.ts) from it. Usage: npm run openapi
import { writeFileSync } from 'node:fs';
import { generateOpenApiDocument, generateWebTypes, OPENAPI_FILE, renderOpenApi, WEB_SCHEMA_FILE } from './openapi-document';

void (async () => {
  const document = await generateOpenApiDocument();
  writeFileSync(OPENAPI_FILE, renderOpenApi(document));
  console.log(`openapi: wrote ${OPENAPI_FILE} (${Object.keys(document.paths).length} paths)`);
  generateWebTypes(OPENAPI_FILE, WEB_SCHEMA_FILE);
  console.log(`openapi: wrote ${WEB_SCHEMA_FILE}`);
})();
