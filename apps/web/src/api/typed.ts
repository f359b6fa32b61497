import { apiRequest, ApiRequestOptions, QueryValue } from './client';
import type { paths } from './schema';

/**
 * API calls typed from the OpenAPI document (docs/openapi.json → schema.d.ts, `npm run openapi`),
 * which the server makes from the zod schemas it validates with: a field renamed on the server
 * breaks the type check of every screen that reads it.
 */
export type ApiPaths = paths;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The documented paths that have the method. */
export type PathsFor<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: infer O } ? ([O] extends [undefined] ? never : P) : never;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : void;
type Success = 200 | 201 | 202 | 204;

/** The body of a successful answer. */
export type ResponseOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? { [S in keyof R & Success]: Json<R[S]> }[keyof R & Success] : never;
/** The JSON body the call takes. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? ([Q] extends [never | undefined] ? never : Q) : never;
type PathParamsOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { path: infer Q } } ? ([Q] extends [never | undefined] ? never : Q) : never;

/** The body and options of a call: a call that takes no body (POST .../delete-connection) takes `undefined`, or nothing. */
type BodyArgs<P extends keyof paths, M extends Method> = [BodyOf<P, M>] extends [never]
  ? [body?: undefined, options?: TypedCallOptions<P, M>]
  : [body: BodyOf<P, M>, options?: TypedCallOptions<P, M>];

export type TypedCallOptions<P extends keyof paths, M extends Method> = Omit<ApiRequestOptions, 'method' | 'body' | 'query'> & {
  params?: PathParamsOf<P, M>;
  query?: QueryOf<P, M>;
};

/** `/api/policies/{id}` with `{id}` → `/api/policies/<id>/` (the API takes both slash forms). */
function expand(path: string, params: Record<string, unknown> | undefined): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
  return filled.endsWith('/') ? filled : `${filled}/`;
}

function call<P extends keyof paths, M extends Method>(method: M, path: P, body: unknown, options: TypedCallOptions<P, M> = {}): Promise<ResponseOf<P, M>> {
  const { params, query, ...rest } = options;
  return apiRequest<ResponseOf<P, M>>(expand(path, params as Record<string, unknown> | undefined), {
    ...rest,
    method: method.toUpperCase() as ApiRequestOptions['method'],
    body,
    query: query as Record<string, QueryValue> | undefined,
  });
}

export const typedApi = {
  get: <P extends PathsFor<'get'>>(path: P, options?: TypedCallOptions<P, 'get'>) => call('get', path, undefined, options),
  delete: <P extends PathsFor<'delete'>>(path: P, options?: TypedCallOptions<P, 'delete'>) => call('delete', path, undefined, options),
  post: <P extends PathsFor<'post'>>(path: P, ...[body, options]: BodyArgs<P, 'post'>) => call('post', path, body, options),
  put: <P extends PathsFor<'put'>>(path: P, body: BodyOf<P, 'put'>, options?: TypedCallOptions<P, 'put'>) => call('put', path, body, options),
  patch: <P extends PathsFor<'patch'>>(path: P, body: BodyOf<P, 'patch'>, options?: TypedCallOptions<P, 'patch'>) => call('patch', path, body, options),
};
