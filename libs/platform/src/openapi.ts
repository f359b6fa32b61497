import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';

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

/**
 * The error shapes every endpoint may answer (architecture section 5): `{"field": ["message"]}`,
 * `{"non_field_errors": ["message"]}` or `{"detail": "message"}`.
 */
export const ERROR_BODY_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'An error: field errors `{"field": ["message"]}`, `{"non_field_errors": ["message"]}` or `{"detail": "message"}`.',
  properties: {
    detail: { type: 'string' },
    non_field_errors: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: { type: 'array', items: { type: 'string' } },
  example: { name: ['This field is required.'] },
};

const ERROR_RESPONSES: Record<string, { description: string; example: unknown }> = {
  '400': { description: 'Invalid input: field errors or non_field_errors.', example: { policyName: ['This field is required.'] } },
  '401': { description: 'No valid `Authorization: JWT <token>` header.', example: { detail: 'Authentication credentials were not provided.' } },
  '404': { description: 'Not found, or not visible to the caller (the product does not tell the two apart).', example: { detail: 'Not found.' } },
  default: { description: 'Any other error (403, 409, 413, 429, 5xx), in the same shape.', example: { detail: 'A server error occurred.' } },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Adds the error shapes to every operation, so clients generated from the document know them. */
export function withErrorShapes(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ErrorBody: ERROR_BODY_SCHEMA } };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const [status, { description, example }] of Object.entries(ERROR_RESPONSES)) {
        operation.responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, example } } };
      }
    }
  }
  return document;
}

/** The OpenAPI document of the controllers an app has (also made without starting it: tools/openapi). */
export function createOpenApiDocument(app: INestApplication, title: string): OpenAPIObject {
  return withErrorShapes(
    SwaggerModule.createDocument(app, baseDocument(title), {
      operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    }),
  );
}

/** Serves the OpenAPI document of the controllers this process has, with its UI at /api/docs. */
export function mountOpenApi(app: INestApplication, title: string): OpenAPIObject {
  const document = createOpenApiDocument(app, title);
  SwaggerModule.setup(OPENAPI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH, raw: ['json'], customSiteTitle: title });
  return document;
}

/**
 * Distributed mode: the gateway has no controllers of its own, so its document is the union of
 * the services' documents, fetched when asked for (a service that is down is left out).
 */
export function mountMergedOpenApi(app: INestApplication, title: string, serviceUrls: string[]): void {
  SwaggerModule.setup(OPENAPI_PATH, app, createOpenApiDocument(app, title), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: title,
    patchDocumentOnRequest: async (_req, _res, document) => {
      const merged: OpenAPIObject = { ...document, paths: { ...document.paths } };
      const parts = await Promise.allSettled(
        serviceUrls.map(async (url) => (await fetch(`${url}/${OPENAPI_JSON_PATH}`, { signal: AbortSignal.timeout(3000) })).json() as Promise<OpenAPIObject>),
      );
      for (const part of parts) {
        if (part.status !== 'fulfilled') continue;
        Object.assign(merged.paths, part.value.paths);
        merged.components = { ...merged.components, schemas: { ...merged.components?.schemas, ...part.value.components?.schemas } };
      }
      return merged;
    },
  });
}
