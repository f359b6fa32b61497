import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { loadConfig, SERVICE_NAMES, ServiceName } from '@dc/platform';
import { mountServiceProxy } from './proxy';

/** Stands in for every service: answers with the headers the gateway forwarded. */
function startEchoService(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.headers));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('gateway proxy: the client address it forwards', () => {
  let echo: Awaited<ReturnType<typeof startEchoService>>;
  beforeAll(async () => {
    echo = await startEchoService();
  });
  afterAll(() => new Promise((resolve) => echo.server.close(resolve)));

  /** The gateway as createApp sets it up: "trust proxy" from TRUST_PROXY. */
  const gateway = (env: Record<string, string>) => {
    const app = express();
    app.set('trust proxy', loadConfig(env).TRUST_PROXY);
    mountServiceProxy(app, Object.fromEntries(SERVICE_NAMES.map((name) => [name, echo.url])) as Record<ServiceName, string>, pino({ level: 'silent' }));
    return app;
  };
  const forwarded = async (app: express.Express, headers: Record<string, string>) => {
    const response = await request(app).post('/api-token-auth/').set(headers).send({});
    return response.body as IncomingHttpHeaders;
  };

  it("replaces a spoofed X-Forwarded-For from an untrusted client with the client's own address", async () => {
    // Only 192.0.2.10 may forward addresses to this gateway; the test connects from loopback.
    const headers = await forwarded(gateway({ TRUST_PROXY: '192.0.2.10' }), { 'X-Forwarded-For': '198.51.100.1, 198.51.100.2' });
    expect(headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it('passes on the client address a trusted proxy in front of it reported, and only that', async () => {
    // Default TRUST_PROXY: loopback, as when an ingress or a local reverse proxy runs on the same host.
    const headers = await forwarded(gateway({}), { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' });
    expect(headers['x-forwarded-for']).toBe('203.0.113.9');
  });

  it('sends the client address even when the client sent none', async () => {
    const headers = await forwarded(gateway({}), {});
    expect(headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(headers['x-forwarded-proto']).toBe('http');
  });
});
