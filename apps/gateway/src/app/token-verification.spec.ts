import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { mountTokenVerification, TokenVerifier } from './token-verification';

/** Stands in for identity's internal/token-status: only `JWT current` is current. */
function startIdentity(): Promise<{ url: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(`${req.url} ${req.headers.authorization}`);
    res.statusCode = req.url === '/internal/token-status' && req.headers.authorization === 'JWT current' ? 204 : 401;
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, server })),
  );
}

describe('gateway token verification (distributed mode)', () => {
  let identity: Awaited<ReturnType<typeof startIdentity>>;
  let app: express.Express;

  beforeAll(async () => {
    identity = await startIdentity();
  });
  afterAll(() => new Promise((resolve) => identity.server.close(resolve)));
  beforeEach(() => {
    identity.asked.length = 0;
    app = express();
    mountTokenVerification(app, identity.url, pino({ level: 'silent' }));
    // Stands in for the proxy and the services: what got through, with the status the test asks for.
    app.use((req, res) => {
      res.status(Number(req.headers['x-test-status'] ?? 200)).json({ reached: req.path });
    });
  });

  it('forwards a call to another service only while identity says its token is current', async () => {
    expect((await request(app).get('/api/records/').set('Authorization', 'JWT current')).body).toEqual({ reached: '/api/records/' });
    const refused = await request(app).post('/api/records/').set('Authorization', 'JWT revoked');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
    expect(identity.asked).toEqual(['/internal/token-status JWT current', '/internal/token-status JWT revoked']);
  });

  it("leaves anonymous calls, other schemes, identity's own calls and unrouted paths alone", async () => {
    expect((await request(app).get('/api/recordsannon/')).status).toBe(200);
    expect((await request(app).get('/api/recordsannon/').set('Authorization', 'Bearer x')).status).toBe(200);
    expect((await request(app).get('/api/account/user-account/').set('Authorization', 'JWT revoked')).status).toBe(200);
    expect((await request(app).get('/health/ready').set('Authorization', 'JWT revoked')).status).toBe(200);
    expect(identity.asked).toEqual([]);
  });

  it('reuses a verdict briefly, and forgets every verdict after a successful write at identity', async () => {
    for (let i = 0; i < 3; i++) expect((await request(app).get('/api/policies/').set('Authorization', 'JWT current')).status).toBe(200);
    expect(identity.asked).toHaveLength(1);
    // A failed write at identity changes nothing, so the verdict stands ...
    expect((await request(app).put('/api/change-password/').set('Authorization', 'JWT current').set('x-test-status', '400').send({})).status).toBe(400);
    expect((await request(app).get('/api/policies/').set('Authorization', 'JWT current')).status).toBe(200);
    expect(identity.asked).toHaveLength(1);
    // ... a successful one (a password change, a deleted account) may have made tokens stale.
    expect((await request(app).put('/api/change-password/').set('Authorization', 'JWT current').send({})).status).toBe(200);
    expect((await request(app).get('/api/policies/').set('Authorization', 'JWT current')).status).toBe(200);
    expect(identity.asked).toHaveLength(2);
  });

  it('asks again once a verdict is older than its time to live', async () => {
    let now = 1_000_000;
    const verifier = new TokenVerifier(identity.url, () => now);
    expect(await verifier.isCurrent('JWT current')).toBe(true);
    now += 4_000;
    expect(await verifier.isCurrent('JWT current')).toBe(true);
    expect(identity.asked).toHaveLength(1);
    now += 2_000;
    expect(await verifier.isCurrent('JWT current')).toBe(true);
    expect(identity.asked).toHaveLength(2);
  });

  it('fails closed with 502 when identity cannot answer', async () => {
    const unreachable = express();
    mountTokenVerification(unreachable, 'http://127.0.0.1:1', pino({ level: 'silent' }));
    unreachable.use((_req, res) => res.json({ reached: true }));
    const response = await request(unreachable).get('/api/records/').set('Authorization', 'JWT current');
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ detail: 'The service is temporarily unavailable. Please try again.' });
  });
});
