import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { api, ApiError, onUnauthorised } from './client';

describe('API client: a 401 on a call made with a token ends that session', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // Answers with the status named in the path, as the API would.
    server = createServer((req, res) => {
      res.statusCode = Number(req.url!.slice(1));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(res.statusCode === 401 ? { detail: 'Invalid or expired token. Please log in again.' } : {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tells the listeners which token was refused, whatever the call, and still throws the ApiError', async () => {
    const refused: string[] = [];
    const stop = onUnauthorised((token) => refused.push(token));
    try {
      await expect(api.get(`${base}/401`, { token: 'token-a' })).rejects.toMatchObject({
        status: 401,
        detail: 'Invalid or expired token. Please log in again.',
      });
      await expect(api.delete(`${base}/401`, { token: 'token-b' })).rejects.toBeInstanceOf(ApiError);
      expect(refused).toEqual(['token-a', 'token-b']);
    } finally {
      stop();
    }
  });

  it('says nothing for anonymous calls, for other errors, and after unsubscribing', async () => {
    const refused: string[] = [];
    const stop = onUnauthorised((token) => refused.push(token));
    await expect(api.post(`${base}/401`, {}, { token: null })).rejects.toMatchObject({ status: 401 });
    await expect(api.get(`${base}/403`, { token: 'token-a' })).rejects.toMatchObject({ status: 403 });
    await expect(api.get(`${base}/200`, { token: 'token-a' })).resolves.toEqual({});
    stop();
    await expect(api.get(`${base}/401`, { token: 'token-a' })).rejects.toMatchObject({ status: 401 });
    expect(refused).toEqual([]);
  });
});
