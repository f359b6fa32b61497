import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const OPENAPI_PATH = 'api/docs';
export const OPENAPI_JSON_PATH = 'api/docs/openapi.json';

function baseDocument(title: string) {
  return new DocumentBuilder()
    .setTitle(title)
    .setDescription('Data catalogue with data sharing. Authenticate with `Authorization: JWT <token>` from POST /api-token-auth/.')
    .setVersion('0.1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'JWT <token>' }, 'jwt')
    .build();
}

/** Serves the OpenAPI document of the controllers this process has, with its UI at /api/docs. */
export function mountOpenApi(app: INestApplication, title: string): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, baseDocument(title));
  SwaggerModule.setup(OPENAPI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH, raw: ['json'], customSiteTitle: title });
  return document;
}

/**
 * Distributed mode: the gateway has no controllers of its own, so its document is the union of
 * the services' documents, fetched when asked for (a service that is down is left out).
 */
export function mountMergedOpenApi(app: INestApplication, title: string, serviceUrls: string[]): void {
  SwaggerModule.setup(OPENAPI_PATH, app, SwaggerModule.createDocument(app, baseDocument(title)), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: title,
    patchDocumentOnRequest: async (_req, _res, document) => {
      const merged: OpenAPIObject = { ...document, paths: { ...document.paths } };
      const parts = await Promise.allSettled(serviceUrls.map(async (url) => (await fetch(`${url}/${OPENAPI_JSON_PATH}`, { signal: AbortSignal.timeout(3000) })).json() as Promise<OpenAPIObject>));
      for (const part of parts) if (part.status === 'fulfilled') Object.assign(merged.paths, part.value.paths);
      return merged;
    },
  });
}
