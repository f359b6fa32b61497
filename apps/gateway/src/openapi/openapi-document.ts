import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createLogger, createOpenApiDocument, InfrastructureModule, loadConfig, PlatformModule } from '@dc/platform';
import { ALL_SERVICE_MODULES } from '../app/embedded';

const ROOT = path.resolve(__dirname, '../../../..');
export const OPENAPI_FILE = path.join(ROOT, 'docs/openapi.json');
/** The web client's types, generated from the document by openapi-typescript. */
export const WEB_SCHEMA_FILE = path.join(ROOT, 'apps/web/src/api/schema.d.ts');

/** Writes the web client's types for the document at `source` to `target` (openapi-typescript). */
export function generateWebTypes(source: string, target: string): void {
  const cli = path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
  execFileSync(process.execPath, [cli, source, '--output', target], { cwd: ROOT, stdio: 'pipe' });
}
export const OPENAPI_TITLE = 'Data Catalogue API';
export const REGENERATE_OPENAPI = 'npm run openapi';

/**
 * The API's OpenAPI document, made from the controllers of every service module without starting
 * anything: Nest's preview mode resolves the modules but creates no provider (no database, no bus).
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(32),
    ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
  });
  const logger = createLogger({ service: 'openapi', level: 'silent' });
  @Module({ imports: [PlatformModule.forRoot({ service: 'gateway', config, logger }), InfrastructureModule.forRoot(), ...ALL_SERVICE_MODULES] })
  class DocumentModule {}
  const app = await NestFactory.create(DocumentModule, { preview: true, logger: false, abortOnError: false });
  try {
    return sortedDocument(createOpenApiDocument(app, OPENAPI_TITLE));
  } finally {
    await app.close();
  }
}

/** Paths in order, so the committed file changes only where the API does. */
function sortedDocument(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths };
}

export function renderOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
