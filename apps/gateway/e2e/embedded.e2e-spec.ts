import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { activateAndLogin, createPublicRecord, register as registerUser } from './flows';
import { ensureServerBuild, eventually, freePort, RunningProcess, startNode, waitForHttp } from '@dc/testing';

/**
 * `npm start` as a newcomer runs it: one process, embedded PostgreSQL under DATA_DIR, in-process
 * events, files and mail on disk. Data survives a restart.
 */
describe('embedded mode (one process, nothing else running)', () => {
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let app: RunningProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'debug' });
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    ensureServerBuild();
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-embedded-'));
    // mkdtemp makes it private to root; the embedded PostgreSQL (user postgres when run by root) must traverse it.
    chmodSync(dataDir, 0o755);
    port = await freePort();
    pgPort = await freePort();
  });

  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start() {
    app = startNode('embedded', 'dist/apps/gateway/src/main.js', env());
    await waitForHttp(`${base()}/health/ready`, { process: app, timeoutMs: 90_000 });
  }

  const register = (username: string) => registerUser(base(), username, 'correct horse battery', `corr-${username}`);

  it('starts with an embedded PostgreSQL on its own port and serves the API and health', async () => {
    await start();
    const ready = await (await fetch(`${base()}/health/ready`)).json();
    expect(ready.status).toBe('ok');
    expect(Object.keys(ready.checks)).toEqual(expect.arrayContaining(['identity-database', 'search-database', 'catalogue-database']));
    expect(pgPort).not.toBe(5432);
  });

  it('routes an API call to its service module and its event to another service in the same process', async () => {
    const response = await register('ada');
    expect(response.status).toBe(201);
    expect(response.headers.get('x-correlation-id')).toBe('corr-ada');
    expect(await response.json()).toMatchObject({ message: 'An email was sent to your account. Please confirm your account.' });
    const db = new Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', password: 'embedded', database: 'datacatalogue' });
    await db.connect();
    try {
      const orgs = await eventually(async () => {
        const rows = (await db.query('SELECT name FROM search.organisations')).rows;
        expect(rows).toHaveLength(1);
        return rows;
      });
      expect(orgs[0].name).toBe('Ada Lovelace');
      const hash = (await db.query("SELECT password_hash FROM identity.users WHERE username = 'ada'")).rows[0].password_hash;
      expect(hash).toMatch(/^\$argon2id\$/);
    } finally {
      await db.end();
    }
    // The correlation id followed the call into the event handled by the search module.
    const logged = app!.lines.filter((line) => line.includes('"correlationId":"corr-ada"'));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('lists records through the search module: anonymous allowed on recordsannon, a token needed on records', async () => {
    const anonymous = await fetch(`${base()}/api/recordsannon/?query=rain`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    const unauthenticated = await fetch(`${base()}/api/records/`);
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
  });

  it('indexes a record in the catalogue and finds it in the search list (events between modules)', async () => {
    const token = await activateAndLogin(base(), path.join(dataDir, 'mail'), 'ada', 'correct horse battery');
    const auth = { authorization: `JWT ${token}` };
    const record = await createPublicRecord(base(), token, 'Rainfall by river basin');

    const own = await eventually(async () => {
      const page = await (await fetch(`${base()}/api/records/?query=rainfall&view=own`, { headers: auth })).json();
      expect(page.count).toBe(1);
      return page;
    });
    expect(own.results[0]).toMatchObject({ id: record.id, name: 'Rainfall by river basin', user: 'ada', is_owner: true, edit: true });
    const anonymous = await eventually(async () => {
      const page = await (await fetch(`${base()}/api/recordsannon/?query=rainfal`)).json();
      expect(page.count).toBe(1);
      return page;
    });
    expect(anonymous.results[0]).toMatchObject({ id: record.id, visibility: 'EV', is_owner: false, edit: false });
  });

  it('answers errors in the spec shapes', async () => {
    const invalid = await fetch(`${base()}/api/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x', email: 'not-an-email', password: 'abcdefgh', password_confirm: 'abcdefgX' }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      email: ['Enter a valid email address.'],
      first_name: ['First Name is required'],
      last_name: ['Last Name is required'],
      description: ['A description is required.'],
      password_confirm: ["Passwords don't match."],
    });
    const missing = await fetch(`${base()}/api/nothing-here/`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found.' });
    const malformed = await fetch(`${base()}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username": ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ detail: 'Malformed request body.' });
  });

  it('keeps its data across a restart', async () => {
    expect(await app!.stop()).toBe(0);
    await start();
    const again = await register('ada');
    expect(again.status).toBe(400);
    // A taken email is not said (docs/security.md, "Issue 21: small findings").
    expect(await again.json()).toEqual({ username: ['A user with that username already exists.'] });
  });

  it('publishes the OpenAPI document of every module at /api/docs', async () => {
    const document = await (await fetch(`${base()}/api/docs/openapi.json`)).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/register', '/api/records', '/api/recordsannon']));
    expect((await fetch(`${base()}/api/docs`)).status).toBe(200);
  });

  it('serves the web app at /', async () => {
    const response = await fetch(`${base()}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
  });

  it('refuses to start on invalid configuration, naming the variable', async () => {
    const bad = startNode('bad-config', 'dist/apps/gateway/src/main.js', { ...env(), BUS_DRIVER: 'carrier-pigeon' });
    expect(await bad.exited).toBe(1);
    expect(bad.lines.join('\n')).toMatch(/BUS_DRIVER/);
  });

  it('refuses to start on another Node major, saying which one it needs', async () => {
    // This Node (24) made to report itself as the machine's older one.
    const preload = path.join(dataDir, 'pretend-node-20.cjs');
    writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n");
    const old = startNode('old-node', 'dist/apps/gateway/src/main.js', { ...env(), NODE_OPTIONS: `--require ${preload}` });
    expect(await old.exited).toBe(1);
    expect(old.lines).toEqual([expect.stringContaining('Node.js 24 is required, but this is Node.js 20.20.2')]);
  });
});
