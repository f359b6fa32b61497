import { readToken } from './token-storage';

/** Field errors as the API sends them: `{"field": ["message"]}`. */
export type FieldErrors = Record<string, string[]>;

/**
 * A failed API call. The API answers errors in three shapes (architecture section 5):
 * `{field: [msg]}`, `{non_field_errors: [msg]}` and `{detail: msg}`; all are parsed here so screens
 * only pick the part they show.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly fieldErrors: FieldErrors = {},
    readonly nonFieldErrors: string[] = [],
    readonly detail?: string,
    readonly body?: unknown,
  ) {
    super(detail ?? nonFieldErrors[0] ?? firstFieldError(fieldErrors) ?? defaultMessage(status));
    this.name = 'ApiError';
  }

  /** The first error of one field, if any. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors[field]?.[0];
  }
}

function firstFieldError(errors: FieldErrors): string | undefined {
  for (const [field, messages] of Object.entries(errors)) {
    if (messages[0]) return `${field}: ${messages[0]}`;
  }
  return undefined;
}

function defaultMessage(status: number): string {
  return status === 0 ? 'The server could not be reached.' : `The request failed (HTTP ${status}).`;
}

function toMessages(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return undefined;
}

/** Turns an error response body into an ApiError. */
export function parseApiError(status: number, body: unknown): ApiError {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const text = typeof body === 'string' && body.trim() && !body.trimStart().startsWith('<') ? body.trim() : undefined;
    return new ApiError(status, {}, [], text, body);
  }
  const fieldErrors: FieldErrors = {};
  let nonFieldErrors: string[] = [];
  let detail: string | undefined;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'detail' && typeof value === 'string') detail = value;
    else if (key === 'non_field_errors') nonFieldErrors = toMessages(value) ?? [];
    else {
      const messages = toMessages(value);
      if (messages) fieldErrors[key] = messages;
    }
  }
  return new ApiError(status, fieldErrors, nonFieldErrors, detail, body);
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, unless it is FormData (uploads). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Defaults to the token of the current session; pass null to call anonymously. */
  token?: string | null;
  signal?: AbortSignal;
  /** Aborts the call after this many milliseconds (spec section 9 lists the time-outs). */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type UnauthorisedListener = (token: string) => void;
const unauthorisedListeners = new Set<UnauthorisedListener>();

/**
 * Hears of every call made with a token that the API refused with 401: the token expired or was
 * revoked (password change, deactivation...), so that session is over. Returns the unsubscribe.
 */
export function onUnauthorised(listener: UnauthorisedListener): () => void {
  unauthorisedListeners.add(listener);
  return () => unauthorisedListeners.delete(listener);
}

/** Calls the API with the session's `Authorization: JWT <token>` header; throws ApiError on failure. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, timeoutMs } = options;
  const token = options.token === undefined ? readToken() : options.token;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `JWT ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const signals = [signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter((s): s is AbortSignal => !!s);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      signal: signals.length ? AbortSignal.any(signals) : undefined,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(0, {}, [], timedOut ? 'The server took too long to answer.' : undefined);
  }
  const data = await readBody(response);
  if (response.status === 401 && token) for (const listener of unauthorisedListeners) listener(token);
  if (!response.ok) throw parseApiError(response.status, data);
  return data as T;
}

/** Short forms of apiRequest for each method. */
export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
