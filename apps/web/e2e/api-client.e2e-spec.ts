import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, ApiError, parseApiError } from '../src/api/client';

// The web client's API wrapper against a real HTTP server answering in the API's error shapes.
describe('web api client', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        const reply = (status: number, payload?: unknown) => {
          response.writeHead(status, { 'Content-Type': 'application/json' });
          response.end(payload === undefined ? '' : JSON.stringify(payload));
        };
        const path = new URL(request.url ?? '/', 'http://x').pathname;
        if (path === '/api/ok/') return reply(200, { id: 7, name: 'ok' });
        if (path === '/api/empty/') return reply(204);
        if (path === '/api/fields/') return reply(400, { name: ['This field is required.'], port: 'Not a number.' });
        if (path === '/api/non-field/') return reply(400, { non_field_errors: ['Passwords do not match.'] });
        if (path === '/api/detail/') return reply(403, { detail: 'You do not have permission to perform this action.' });
        response.writeHead(502, { 'Content-Type': 'text/html' });
        response.end('<html>Bad gateway</html>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the JWT header and JSON body and returns the parsed answer', async () => {
    const answer = await api.post<{ id: number }>(`${base}/api/ok/`, { a: 1 }, { token: 'abc', query: { page: 2, empty: '', skip: undefined } });
    expect(answer).toEqual({ id: 7, name: 'ok' });
    const call = seen.at(-1);
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('/api/ok/?page=2');
    expect(call?.headers.authorization).toBe('JWT abc');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call?.body ?? '')).toEqual({ a: 1 });
  });

  it('calls anonymously with token null and accepts an empty answer', async () => {
    await expect(api.delete(`${base}/api/empty/`, { token: null })).resolves.toBeUndefined();
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('parses field errors', async () => {
    const error = await api.get(`${base}/api/fields/`, { token: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.fieldErrors).toEqual({ name: ['This field is required.'], port: ['Not a number.'] });
    expect(apiError.fieldError('name')).toBe('This field is required.');
    expect(apiError.message).toBe('name: This field is required.');
  });

  it('parses non-field errors and details', async () => {
    const nonField = (await api.post(`${base}/api/non-field/`, {}, { token: null }).catch((e: unknown) => e)) as ApiError;
    expect(nonField.nonFieldErrors).toEqual(['Passwords do not match.']);
    expect(nonField.message).toBe('Passwords do not match.');
    const detail = (await api.get(`${base}/api/detail/`, { token: null }).catch((e: unknown) => e)) as ApiError;
    expect(detail.status).toBe(403);
    expect(detail.detail).toBe('You do not have permission to perform this action.');
    expect(detail.message).toBe(detail.detail);
  });

  it('gives a readable error for non-JSON failures and unreachable servers', async () => {
    const html = (await api.get(`${base}/api/other/`, { token: null }).catch((e: unknown) => e)) as ApiError;
    expect(html.status).toBe(502);
    expect(html.message).toBe('The request failed (HTTP 502).');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = (await api.get(`http://127.0.0.1:${port}/api/x/`, { token: null }).catch((e: unknown) => e)) as ApiError;
    expect(unreachable.status).toBe(0);
    expect(unreachable.message).toBe('The server could not be reached.');
  });

  it('parseApiError keeps unknown shapes as the body', () => {
    expect(parseApiError(500, undefined).message).toBe('The request failed (HTTP 500).');
    expect(parseApiError(400, 'Plain text problem').detail).toBe('Plain text problem');
  });
});
