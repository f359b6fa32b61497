import { request } from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import {
  createTestDatabase,
  describeInfra,
  ensureServerBuild,
  eventually,
  freePort,
  isKcatInstalled,
  RunningProcess,
  startNode,
  TestDatabase,
  waitForHttp,
} from '@dc/testing';
import { DistributedProduct, startDistributedProduct } from './distributed-product';
import { activateAndLogin, register } from './flows';
import { INTERNAL_PATH_VARIANTS, rawRequest } from './raw-http';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a new horse, battery included';
const STALE = { detail: 'Invalid or expired token. Please log in again.' };
/** The identity issue's guarantee: a token ended by logout stops working everywhere within seconds. */
const REVOKED_WITHIN_MS = 15_000;

const call = (base: string, token: string, pathname: string, init: RequestInit = {}) =>
  fetch(`${base}${pathname}`, { ...init, headers: { authorization: `JWT ${token}`, 'content-type': 'application/json', ...init.headers } });

/**
 * What a user sees in either run mode: after a password change, the earlier token stops working on
 * the catalogue's and search's endpoints too, not only on identity's, and the new one works.
 */
async function expectTokenRevokedEverywhere(base: string, mailDir: string, databaseUrl: string, username: string): Promise<void> {
  expect((await register(base, username, PASSWORD)).status).toBe(201);
  const oldToken = await activateAndLogin(base, mailDir, username, PASSWORD);
  const created = await call(base, oldToken, '/api/records/', {
    method: 'POST',
    body: JSON.stringify({ name: `${username}'s rainfall`, description: 'Daily totals', access: 'OP' }),
  });
  expect(created.status).toBe(201);
  const record = (await created.json()) as { id: string };
  expect((await call(base, oldToken, `/api/records/${record.id}/`)).status).toBe(200);
  expect((await call(base, oldToken, '/api/records/')).status).toBe(200);

  const changed = await call(base, oldToken, '/api/change-password/', {
    method: 'PUT',
    body: JSON.stringify({ old_password: PASSWORD, new_password: NEW_PASSWORD, new_password_confirm: NEW_PASSWORD }),
  });
  expect(changed.status).toBe(200);

  for (const [service, pathname, init] of [
    ['catalogue', `/api/records/${record.id}/`, {}],
    ['catalogue', '/api/records/', { method: 'POST', body: JSON.stringify({ name: 'Written with a stale token', description: 'x', access: 'OP' }) }],
    ['search', '/api/records/', {}],
    ['search', '/api/recordsannon/', {}],
    ['identity', '/api/account/user-account/', {}],
  ] as const) {
    const response = await call(base, oldToken, pathname, init);
    expect({ service, pathname, status: response.status, body: await response.json() }).toEqual({ service, pathname, status: 401, body: STALE });
  }

  const login = await fetch(`${base}/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: NEW_PASSWORD }),
  });
  const newToken = ((await login.json()) as { token: string }).token;
  expect((await call(base, newToken, `/api/records/${record.id}/`)).status).toBe(200);
  expect((await call(base, newToken, '/api/records/?view=own')).status).toBe(200);
  // The write with the stale token never reached the catalogue.
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    expect((await db.query("SELECT name FROM catalogue.records WHERE name = 'Written with a stale token'")).rows).toEqual([]);
  } finally {
    await db.end();
  }
}

describeInfra('token revocation in distributed mode (gateway asks identity)', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () => {
  let product: DistributedProduct;
  let db: TestDatabase;
  let gatewayUrl: string;
  let identityUrl: string;
  let common: Record<string, string>;

  beforeAll(async () => {
    // The services trust loopback (the default), where the gateway runs; the gateway trusts no proxy
    // that could be in front of this test, so the test is an ordinary client to it.
    product = await startDistributedProduct('dc_distributed_auth', { TRUST_PROXY: '192.0.2.10' });
    ({ db, gatewayUrl, env: common } = product);
    identityUrl = `http://127.0.0.1:${product.ports.identity}`;
  }, 180_000);

  afterAll(() => product?.stop(), 60_000);

  it('stops a token on the catalogue and search processes as soon as its password changes', async () => {
    await expectTokenRevokedEverywhere(gatewayUrl, product.mailDir, db.url, 'ada');
  }, 90_000);

  it('sends the security headers through the gateway, and a logout ends the token in every service', async () => {
    expect((await register(gatewayUrl, 'leaver', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(gatewayUrl, product.mailDir, 'leaver', PASSWORD);
    const records = await call(gatewayUrl, token, '/api/records/');
    expect(records.status).toBe(200);
    expect(Object.fromEntries(records.headers)).toMatchObject({
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cache-control': 'no-store',
    });
    expect((await call(gatewayUrl, token, '/api/logout/', { method: 'POST' })).status).toBe(204);
    for (const [service, pathname] of [
      ['search', '/api/records/'],
      ['catalogue', '/api/policies/'],
      ['requests', '/api/requests/sent_requests/'],
      ['identity', '/api/account/user-account/'],
    ] as const) {
      const response = await call(gatewayUrl, token, pathname);
      expect({ service, status: response.status }).toEqual({ service, status: 401 });
    }
  }, 90_000);

  it("counts a login failure against the client's real address, whatever X-Forwarded-For it sends", async () => {
    // From 127.0.0.2, so the client's address differs from the gateway's own (127.0.0.1).
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ username: 'spoofer', password: 'wrong password' });
      const call = request(
        `${gatewayUrl}/api-token-auth/`,
        { method: 'POST', localAddress: '127.0.0.2', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' } },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      call.on('error', reject);
      call.end(body);
    });
    expect(status).toBe(400);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const counted = (await client.query("SELECT DISTINCT subject FROM identity.login_failures WHERE scope = 'address'")).rows.map((row) => row.subject);
      expect(counted).toEqual([expect.stringMatching(/^(::ffff:)?127\.0\.0\.2$/)]);
    } finally {
      await client.end();
    }
  });

  it('answers every Account and profile call of spec section 7 with and without its trailing slash, through the gateway and directly', async () => {
    const password = 'every route is fine';
    expect((await register(gatewayUrl, 'paths', password)).status).toBe(201);
    const token = await activateAndLogin(gatewayUrl, product.mailDir, 'paths', password);
    const me = await (await call(gatewayUrl, token, '/api/account/user-account/')).json();
    let subAccounts = 0;
    const subAccount = async () => {
      subAccounts += 1;
      const created = await call(gatewayUrl, token, '/api/account/', {
        method: 'POST',
        body: JSON.stringify({ username: `sub-${subAccounts}`, email: `sub-${subAccounts}@example.org`, first_name: 'Sub', last_name: 'Account', password }),
      });
      expect(created.status).toBe(201);
      return ((await created.json()) as { id: string }).id;
    };
    const member = await subAccount();
    const organisation = `/api/organisation/${me.organisation}/`;
    const json = (body: unknown) => JSON.stringify(body);

    // [method, path as the spec writes it (a function for a fresh target per call), body, status]
    const table: Array<[string, string | (() => Promise<string>), string | undefined, number]> = [
      ['POST', '/api/register/', json({}), 400],
      ['POST', '/api-token-auth/', json({ username: 'paths', password }), 200],
      ['GET', '/api/account/user-account/', undefined, 200],
      ['POST', '/api/password/confirm/', json({ email: 'nobody@example.org' }), 200],
      [
        'POST',
        '/api/password/check/',
        json({ email: 'paths@example.org', token: 'not-a-token', password: 'whatever it is', password_confirm: 'whatever it is' }),
        400,
      ],
      ['PUT', '/api/change-profile-information/', json({ first_name: 'Path', last_name: 'Finder' }), 200],
      ['PUT', '/api/change-password/', json({}), 400],
      ['GET', '/api/user-api-keys/', undefined, 200],
      ['GET', organisation, undefined, 200],
      ['PUT', organisation, json({ name: 'Paths Ltd', email: 'paths@example.org', description: 'Routes' }), 200],
      ['GET', '/api/account/', undefined, 200],
      ['POST', '/api/account/', json({}), 400],
      ['GET', `/api/account/${member}/`, undefined, 200],
      ['PUT', `/api/account/${member}/`, json({ first_name: 'Member' }), 200],
      ['PATCH', `/api/account/${member}/`, json({ groups: [3] }), 200],
      ['DELETE', async () => `/api/account/${await subAccount()}/`, undefined, 204],
      ['POST', `/api/account/${member}/set_password/`, json({ new_password: 'set by the admin', new_password_confirm: 'set by the admin' }), 200],
      ['GET', '/api/userprofile-autofill-list', undefined, 200],
      ['GET', '/api/organisation-autofill-list', undefined, 200],
    ];
    for (const [method, pathOrFresh, body, status] of table) {
      const answers: Array<{ via: string; path: string; status: number }> = [];
      const expected: typeof answers = [];
      for (const [via, base] of [
        ['gateway', gatewayUrl],
        ['identity', identityUrl],
      ]) {
        for (const slash of [true, false]) {
          const specPath = typeof pathOrFresh === 'string' ? pathOrFresh : await pathOrFresh();
          const target = slash ? specPath.replace(/\/?$/, '/') : specPath.replace(/\/$/, '');
          const response = await call(base, token, target, { method, body });
          await response.arrayBuffer();
          answers.push({ via, path: `${method} ${target}`, status: response.status });
          expected.push({ via, path: `${method} ${target}`, status });
        }
      }
      expect(answers).toEqual(expected);
    }
  }, 120_000);

  it('ends a token within seconds on the identity process and the gateway that did not see its logout (second identity process)', async () => {
    expect((await register(gatewayUrl, 'elsewhere', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(gatewayUrl, product.mailDir, 'elsewhere', PASSWORD);
    const port = await freePort();
    const second = startNode('identity-2', 'dist/apps/identity/src/main.js', { ...common, PORT: String(port) });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, { process: second, timeoutMs: 120_000 });
      // Both identity processes and the gateway accept the token: it is remembered as current.
      for (const base of [identityUrl, `http://127.0.0.1:${port}`, gatewayUrl])
        expect((await call(base, token, '/api/account/user-account/')).status).toBe(200);
      expect((await call(gatewayUrl, token, '/api/records/')).status).toBe(200);
      // Logout at the second process, which the gateway never routes to.
      expect((await call(`http://127.0.0.1:${port}`, token, '/api/logout/', { method: 'POST' })).status).toBe(204);
      await eventually(async () => {
        expect((await call(identityUrl, token, '/api/account/user-account/')).status).toBe(401);
        expect((await call(identityUrl, token, '/internal/token-status')).status).toBe(401);
        expect((await call(gatewayUrl, token, '/api/records/')).status).toBe(401);
        expect((await call(gatewayUrl, token, '/api/policies/')).status).toBe(401);
      }, REVOKED_WITHIN_MS);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('refuses to start a service without PUBLIC_URL, naming the variable', async () => {
    const env = Object.fromEntries(Object.entries(common).filter(([name]) => name !== 'PUBLIC_URL'));
    const identity = startNode('identity-without-public-url', 'dist/apps/identity/src/main.js', { ...env, PORT: String(await freePort()) });
    expect(await identity.exited).toBe(1);
    expect(identity.lines.join('\n')).toContain('PUBLIC_URL: required when RUN_MODE=distributed');
  });

  it("does not let outside callers reach identity's internal token check through the gateway, however the path is written", async () => {
    expect((await register(gatewayUrl, 'insider', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(gatewayUrl, product.mailDir, 'insider', PASSWORD);
    const auth = { authorization: `JWT ${token}` };
    const gatewayPort = Number(new URL(gatewayUrl).port);
    const answers = [];
    for (const variant of INTERNAL_PATH_VARIANTS)
      answers.push({ variant, status: (await rawRequest(gatewayPort, { method: 'GET', path: variant, headers: auth }))?.status });
    expect(answers).toEqual(INTERNAL_PATH_VARIANTS.map((variant) => ({ variant, status: 404 })));
    // Identity answers it on its own port, inside the private network, where the gateway asks.
    expect((await fetch(`${identityUrl}/internal/token-status`, { headers: auth })).status).toBe(204);
  });
});

describeInfra('token revocation in embedded mode (one process)', true, () => {
  let db: TestDatabase;
  let app: RunningProcess;
  let base: string;
  const dataDir = () => `/tmp/${db.name}`;

  beforeAll(async () => {
    ensureServerBuild();
    db = await createTestDatabase('dc_embedded_auth');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = startNode('embedded', 'dist/apps/gateway/src/main.js', {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir(),
      PORT: String(port),
      PUBLIC_URL: base,
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
    });
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 90_000 });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  }, 60_000);

  it('stops a token on the catalogue and search modules as soon as its password changes', async () => {
    await expectTokenRevokedEverywhere(base, path.join(dataDir(), 'mail'), db.url, 'grace');
  }, 90_000);
});
