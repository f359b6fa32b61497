import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { parseRawMail } from '@dc/mailer';
import { createTestDatabase, describeInfra, ensureServerBuild, eventually, freePort, RunningProcess, startNode, TestDatabase, waitForHttp } from '@dc/testing';

const PASSWORD = 'correct horse battery';

/**
 * `npm run reindex` against the product in embedded mode: after the index is wiped, the command
 * rebuilds the same lists from the owning services' re-published events; running it again changes nothing.
 */
/** What each index driver keeps its documents in, and how a lost index looks. */
const DRIVERS = {
  postgres: { table: 'search.records', wipe: ['TRUNCATE search.records, search.record_documents'] },
  // The in-process index's store emptied as clear() would; the running index applies it at its next search.
  'in-process': {
    table: 'search.memory_records',
    wipe: ['TRUNCATE search.memory_records, search.memory_removed', 'UPDATE search.memory_state SET generation = generation + 1, cleared = generation + 1'],
  },
} as const;

describe.each(Object.keys(DRIVERS) as Array<keyof typeof DRIVERS>)('SEARCH_DRIVER=%s', (driver) =>
  describeInfra('npm run reindex (embedded mode, real PostgreSQL)', true, () => {
    let db: TestDatabase;
    let dataDir: string;
    let app: RunningProcess | undefined;
    let sql: Client;
    let base: string;
    let env: Record<string, string>;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      ensureServerBuild();
      db = await createTestDatabase('dc_reindex');
      dataDir = mkdtempSync(path.join(tmpdir(), 'dc-reindex-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      env = { DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir, SERVE_WEB: 'false', LOG_LEVEL: 'warn', SEARCH_DRIVER: driver };
      app = startNode('embedded', 'dist/apps/gateway/src/main.js', env);
      await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 90_000 });
      sql = new Client({ connectionString: db.url });
      await sql.connect();
      for (const username of ['ada', 'bob']) tokens[username] = await signUp(username);
      await createRecord(tokens.ada, 'Rainfall by river basin', 'EV');
      await createRecord(tokens.ada, 'Secret rainfall plans', 'PR');
      await createRecord(tokens.bob, 'River gauges', 'EV');
    });
    afterAll(async () => {
      await sql?.end();
      await app?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await db?.drop();
    });

    async function post(url: string, body: unknown, token?: string) {
      return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    }

    async function signUp(username: string): Promise<string> {
      const registered = await post(`${base}/api/register/`, {
        username,
        email: `${username}@example.org`,
        first_name: 'Test',
        last_name: username,
        description: 'Reindex test',
        password: PASSWORD,
        password_confirm: PASSWORD,
      });
      expect(registered.status).toBe(201);
      const link = await eventually(async () => {
        const mails = readdirSync(path.join(dataDir, 'mail')).map((file) => parseRawMail(readFileSync(path.join(dataDir, 'mail', file), 'utf8')));
        const found = /(https?:\/\/\S+\/api\/register\/activate\/\?token=[\w-]+)/.exec(
          mails.find((mail) => mail.to?.includes(`${username}@example.org`))?.text ?? '',
        )?.[1];
        expect(found).toBeDefined();
        return found!;
      });
      await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: 'manual' });
      const login = await post(`${base}/api-token-auth/`, { username, password: PASSWORD });
      expect(login.status).toBe(200);
      return (await login.json()).token;
    }

    async function createRecord(token: string, name: string, visibility: 'EV' | 'PR') {
      const created = await post(`${base}/api/records/`, { name, description: `About ${name}`, access: 'OP' }, token);
      expect(created.status).toBe(201);
      const record = await created.json();
      if (visibility === 'EV') {
        const auth = { authorization: `JWT ${token}`, 'content-type': 'application/json' };
        const [setting] = (await (await fetch(`${base}/api/visibilities/?associated_record=${record.id}`, { headers: auth })).json()).results;
        const saved = await fetch(`${base}/api/visibilities/${setting.id}/`, {
          method: 'PUT',
          headers: auth,
          body: JSON.stringify({ visibility_selection: 'EV', associated_record: record.id }),
        });
        expect(saved.status).toBe(200);
      }
    }

    /** What the Workspace shows: ada's and bob's lists, the anonymous list and a text search. */
    async function lists() {
      const get = async (url: string, token?: string) => (await fetch(`${base}${url}`, { headers: token ? { authorization: `JWT ${token}` } : {} })).json();
      return {
        ada: await get('/api/records/?page_size=100', tokens.ada),
        bob: await get('/api/records/?page_size=100', tokens.bob),
        anonymous: await get('/api/recordsannon/?page_size=100'),
        rain: await get('/api/records/?query=rainfall', tokens.ada),
      };
    }

    async function reindex(): Promise<void> {
      const command = startNode('reindex', 'dist/apps/search/src/reindex.js', env);
      const code = await command.exited;
      expect({ code, output: command.lines }).toMatchObject({ code: 0 });
    }

    it('rebuilds the same lists after the index is wiped, and changes nothing when run again', async () => {
      const before = await eventually(async () => {
        const current = await lists();
        expect([current.ada.count, current.bob.count, current.anonymous.count, current.rain.count]).toEqual([3, 2, 2, 2]);
        return current;
      });
      expect(before.ada.results.map((card: { name: string }) => card.name).sort()).toEqual([
        'Rainfall by river basin',
        'River gauges',
        'Secret rainfall plans',
      ]);

      // The index is lost (a new Elasticsearch cluster, a dropped table...).
      for (const statement of DRIVERS[driver].wipe) await sql.query(statement);
      expect((await lists()).ada.count).toBe(0);

      await reindex();
      await eventually(async () => expect(await lists()).toEqual(before), 60_000);

      await reindex();
      // The second run empties the index again and fills it with the same documents.
      await eventually(async () => expect(await lists()).toEqual(before), 60_000);
      const [{ n }] = (await sql.query(`SELECT count(*)::int AS n FROM ${DRIVERS[driver].table}`)).rows;
      expect(n).toBe(3);
      // Only events rebuilt it: each run made the catalogue publish every record again.
      const [{ republished }] = (
        await sql.query(`SELECT count(*)::int AS republished FROM catalogue.outbox_events WHERE type = 'record.updated' AND payload->>'name' = 'River gauges'`)
      ).rows;
      expect(republished).toBeGreaterThanOrEqual(3);
    });
  }),
);
