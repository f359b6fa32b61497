import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtension, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * What one endpoint takes and answers, as the zod schemas the server validates with. The same
 * schemas make the OpenAPI document (`docs/openapi.json`), from which the web client's types are
 * generated, so a field renamed on the server breaks the client's type check.
 */
export interface ApiContractSpec {
  summary: string;
  description?: string;
  /** The JSON body, the schema given to SchemaPipe. */
  body?: z.ZodType;
  /** A multipart/form-data body (uploads): its fields, files as `format: binary` strings. */
  multipart?: z.ZodType;
  /** Query parameters: an object schema, one parameter per property. */
  query?: z.ZodType;
  /** Success answers: status → body schema, or null for an answer without a body (204). */
  responses: Record<number, z.ZodType | null>;
  /** An example of the request body. */
  requestExample?: unknown;
  /** An example of the first success answer's body. */
  example?: unknown;
}

/** The extension that marks an operation described by ApiContract (the gaps test looks for it). */
export const API_CONTRACT_EXTENSION = 'x-dc-contract';

type Io = 'input' | 'output';

/**
 * A zod schema as an OpenAPI 3.0 schema: requests as the client may send them (input), answers as
 * the server sends them (output, additional properties refused). Transforms and refinements have no
 * JSON form; they keep the shape of what they wrap.
 */
export function toOpenApiSchema(schema: z.ZodType, io: Io): SchemaObject {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown>;
  delete json.$schema;
  return nullInNullableEnums(json) as SchemaObject;
}

/** OpenAPI 3.0 `nullable` does not let null past an `enum`; validators want null listed too. */
function nullInNullableEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullInNullableEnums);
  if (node === null || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nullInNullableEnums(value)])) as Record<string, unknown>;
  if (object.nullable === true && Array.isArray(object.enum) && !object.enum.includes(null)) object.enum = [...object.enum, null];
  return object;
}

function queryParameters(schema: z.ZodType) {
  const json = toOpenApiSchema(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) =>
    ApiQuery({ name, required: required.has(name), schema: property as SchemaObject, description: (property as SchemaObject).description }),
  );
}

export function ApiContract(spec: ApiContractSpec): MethodDecorator {
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    ApiOperation({ summary: spec.summary, description: spec.description }),
    ApiExtension(API_CONTRACT_EXTENSION, true),
  ];
  if (spec.body) decorators.push(ApiBody({ schema: withExample(toOpenApiSchema(spec.body, 'input'), spec.requestExample) }));
  if (spec.multipart) {
    decorators.push(ApiConsumes('multipart/form-data', 'application/json'), ApiBody({ schema: toOpenApiSchema(spec.multipart, 'input') }));
  }
  if (spec.query) decorators.push(...queryParameters(spec.query));
  let first = true;
  for (const [status, schema] of Object.entries(spec.responses)) {
    const code = Number(status);
    if (schema === null) decorators.push(ApiResponse({ status: code, description: 'No content.' }));
    else {
      decorators.push(
        ApiResponse({ status: code, description: 'Success.', schema: withExample(toOpenApiSchema(schema, 'output'), first ? spec.example : undefined) }),
      );
      first = false;
    }
  }
  return applyDecorators(...decorators);
}

function withExample(schema: SchemaObject, example: unknown): SchemaObject {
  return example === undefined ? schema : { ...schema, example };
}

/** A paged list as every list call answers it (architecture section 5). */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ count: z.number().int(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) });
}

/** `{"message": "..."}`, the answer of calls that only confirm. */
export const messageResponseSchema = z.object({ message: z.string() });

/** An ISO 8601 date and time, as every timestamp is sent. */
export const isoDateTime = z.string().describe('ISO 8601 date and time');

/** page and page_size of a list call (documentation only: lists parse them leniently, see pageOf). */
export const pageQuerySchema = z.object({
  page: z.number().int().min(1).optional().describe('1-based page number'),
  page_size: z.number().int().min(1).optional().describe('results per page'),
});
