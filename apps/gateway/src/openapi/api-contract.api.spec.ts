import type { NestExpressApplication } from '@nestjs/platform-express';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { parse } from 'yaml';
import { parseRawMail } from '@dc/mailer';
import { createApp, createLogger, loadConfig } from '@dc/platform';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, type HttpMethod, TestDatabase } from '@dc/testing';
import { ALL_SERVICE_MODULES } from '../app/embedded';
import { OPENAPI_FILE } from './openapi-document';

const ASYNCAPI_FILE = path.resolve(__dirname, '../../../../docs/asyncapi.yaml');
const SERVICE_SCHEMAS = ['identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'];

/**
 * Real answers of the API against docs/openapi.json, and the events the calls published against
 * docs/asyncapi.yaml: every service module in one process (embedded mode), real PostgreSQL, a
 * newcomer's and a requestor's path through the product, the errors included.
 */
describeInfra('API answers and events match docs/openapi.json and docs/asyncapi.yaml (real PostgreSQL)', true, () => {
  const answers = new DocumentedAnswers(OPENAPI_FILE);
  const checked = answers.checked;
  const mismatches = answers.mismatches;

  let db: TestDatabase;
  let app: NestExpressApplication;
  let dataDir: string;
  let base: string;

  /** Calls the API and checks the answer against the document. */
  async function call(method: HttpMethod, url: string, options: { token?: string; body?: unknown } = {}) {
    const response = await fetch(`${base}${url}`, {
      method: method.toUpperCase(),
      redirect: 'manual',
      headers: {
        ...(options.token ? { authorization: `JWT ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const body: unknown = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    answers.check(method, url, { status: response.status, body, text });
    return { status: response.status, body: body as never };
  }

  /** Signs up (through `call`, so the answers are checked too), follows the mailed link, logs in. */
  async function newcomer(username: string, password: string): Promise<string> {
    const body = {
      username,
      email: `${username}@example.org`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      description: 'Engines',
      password,
      password_confirm: password,
    };
    expect((await call('post', '/api/register/', { body })).status).toBe(201);
    const link = await eventually(async () => {
      const mailDir = path.join(dataDir, 'mail');
      const texts = readdirSync(mailDir)
        .filter((file) => file.endsWith('.eml'))
        .map((file) => parseRawMail(readFileSync(path.join(mailDir, file), 'utf8')));
      const mail = texts.find((m) => m.to?.includes(`${username}@example.org`) && /activate/i.test(m.text ?? ''));
      const found = /\/api\/register\/activate\/\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
      if (!found) throw new Error(`no activation mail for ${username} yet`);
      return found;
    });
    expect((await call('get', link)).status).toBe(302);
    const login = await call('post', '/api-token-auth/', { body: { username, password } });
    expect(login.status).toBe(200);
    return login.body['token'] as string;
  }

  beforeAll(async () => {
    db = await createTestDatabase('dc_api_contract');
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-api-contract-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      JWT_SECRET: 'api-contract-secret-'.padEnd(48, 'x'),
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'silent',
      SERVE_WEB: 'false',
      PUBLIC_URL: 'http://127.0.0.1:1',
    });
    app = await createApp({
      service: 'gateway',
      config,
      logger: createLogger({ service: 'api-contract', level: 'silent' }),
      modules: ALL_SERVICE_MODULES,
      shutdownHooks: false,
    });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers as documented along a newcomer's and a requestor's path, errors included", async () => {
    const password = 'Plenty-of-entropy-42';
    const suffix = randomUUID().slice(0, 8);
    const ada = `ada${suffix}`;
    const bob = `bob${suffix}`;
    const adaToken = await newcomer(ada, password);
    const bobToken = await newcomer(bob, password);
    expect((await call('post', '/api-token-auth/', { body: { username: ada, password } })).status).toBe(200);
    expect((await call('post', '/api-token-auth/', { body: { username: ada, password: 'wrong' } })).status).toBe(400);
    expect((await call('post', '/api-token-auth/', { body: {} })).status).toBe(400);
    expect((await call('get', '/api/register/activate/?token=nonsense')).status).toBe(302);

    // Identity: the caller, the organisation, accounts, API keys, autofill, password reset.
    const me = await call('get', '/api/account/user-account/', { token: adaToken });
    expect(me.status).toBe(200);
    expect((await call('get', '/api/account/user-account/')).status).toBe(401);
    expect((await call('put', '/api/change-profile-information/', { token: adaToken, body: { first_name: 'Augusta', last_name: 'King' } })).status).toBe(200);
    const orgId = me.body['organisation'] as string;
    expect((await call('get', `/api/organisation/${orgId}/`, { token: adaToken })).status).toBe(200);
    expect(
      (
        await call('put', `/api/organisation/${orgId}/`, {
          token: adaToken,
          body: { name: `Engines ${suffix}`, email: `${ada}@example.org`, description: 'Analytical' },
        })
      ).status,
    ).toBe(200);
    expect((await call('get', `/api/organisation/${randomUUID()}/`, { token: adaToken })).status).toBe(404);
    const sub = await call('post', '/api/account/', {
      token: adaToken,
      body: { username: `sub${suffix}`, email: `sub${suffix}@example.org`, first_name: 'Sub', last_name: 'Account', password, password_confirm: password },
    });
    expect(sub.status).toBe(201);
    expect((await call('get', '/api/account/', { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/account/${sub.body['id']}/`, { token: adaToken })).status).toBe(200);
    expect((await call('patch', `/api/account/${sub.body['id']}/`, { token: adaToken, body: { groups: [3] } })).status).toBe(200);
    expect(
      (
        await call('post', `/api/account/${sub.body['id']}/set_password/`, {
          token: adaToken,
          body: { new_password: `${password}!`, new_password_confirm: `${password}!` },
        })
      ).status,
    ).toBe(200);
    expect((await call('delete', `/api/account/${sub.body['id']}/`, { token: adaToken })).status).toBe(204);
    expect((await call('post', '/api/user-api-keys/', { token: adaToken, body: { password } })).status).toBe(201);
    expect((await call('get', '/api/user-api-keys/', { token: adaToken })).status).toBe(200);
    expect((await call('get', '/api/userprofile-autofill-list/?q=a', { token: adaToken })).status).toBe(200);
    expect((await call('get', '/api/organisation-autofill-list/', { token: adaToken })).status).toBe(200);
    expect((await call('post', '/api/password/confirm/', { body: { email: `${bob}@example.org` } })).status).toBe(200);
    expect(
      (await call('post', '/api/password/check/', { body: { email: `${bob}@example.org`, token: 'nonsense', password, password_confirm: password } })).status,
    ).toBe(400);
    expect(
      (await call('put', '/api/change-password/', { token: bobToken, body: { old_password: 'wrong', new_password: password, new_password_confirm: password } }))
        .status,
    ).toBe(400);

    // Catalogue: options, a policy, a project, a record shared with everyone on request.
    expect((await call('get', '/api/accessoptions/')).status).toBe(200);
    const policy = await call('post', '/api/policies/', {
      token: adaToken,
      body: { policyName: 'Research only', policyFields: [{ topic: 'Ethics', requirement: 'An approved protocol', agree: 'yes' }] },
    });
    expect(policy.status).toBe(201);
    expect((await call('post', '/api/policies/', { token: adaToken, body: { policyFields: 'nonsense' } })).status).toBe(400);
    expect((await call('get', '/api/policies/', { token: adaToken })).status).toBe(200);
    expect(
      (
        await call('put', `/api/policies/${policy.body['id']}/`, {
          token: adaToken,
          body: { policyName: 'Research use only', policyFields: [{ topic: 'Ethics', requirement: 'An approved protocol', agree: 'yes' }] },
        })
      ).status,
    ).toBe(200);
    const group = await call('post', '/api/groups/', {
      token: adaToken,
      body: { groupName: 'Rain', groupDescription: 'Gauges', groupFields: [{ label: 'Lead', text: 'Ada' }] },
    });
    expect(group.status).toBe(201);
    const record = await call('post', '/api/records/', {
      token: adaToken,
      body: { name: `Rainfall ${suffix}`, description: 'Daily totals', access: 'RE', policy: policy.body['id'] },
    });
    expect(record.status).toBe(201);
    const recordId = record.body['id'] as string;
    expect((await call('put', `/api/groups/${group.body['id']}/`, { token: adaToken, body: { groupName: 'Rain', addRecordIds: [recordId] } })).status).toBe(
      200,
    );
    expect((await call('get', `/api/groups/?record=${recordId}`, { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/groups/${group.body['id']}/`, { token: adaToken })).status).toBe(200);
    const visibilities = await call('get', `/api/visibilities/?associated_record=${recordId}`, { token: adaToken });
    expect(visibilities.status).toBe(200);
    const visibilityId = (visibilities.body['results'] as Array<{ id: string }>)[0].id;
    expect((await call('get', `/api/visibilities/${visibilityId}/`, { token: adaToken })).status).toBe(200);
    expect(
      (await call('put', `/api/visibilities/${visibilityId}/`, { token: adaToken, body: { visibility_selection: 'EV', associated_record: recordId } })).status,
    ).toBe(200);
    expect(
      (await call('put', `/api/records/${recordId}/`, { token: adaToken, body: { description: 'Daily totals, 1990-2020', record: { Region: 'North' } } }))
        .status,
    ).toBe(200);
    expect((await call('get', `/api/records/${recordId}`)).status).toBe(200);
    expect((await call('get', `/api/records/${recordId}/download`, { token: bobToken })).status).toBe(403);
    expect((await call('get', `/api/records/${randomUUID()}`)).status).toBe(404);
    await eventually(async () => expect((await call('get', `/api/records/?query=Rainfall&view=all`, { token: bobToken })).body['count']).toBeGreaterThan(0));
    expect((await call('get', '/api/recordsannon/?query=Rainfall')).status).toBe(200);

    // Sources: saved SQL connections and cloud accounts (none yet).
    expect((await call('get', '/api/connections/list-connections/', { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/connections/${randomUUID()}/get-connection/`, { token: adaToken })).status).toBe(404);
    expect((await call('get', '/api/connect-aws/get-accounts/', { token: adaToken })).status).toBe(200);
    expect((await call('post', '/api/connect-aws/delete-account/', { token: adaToken, body: { accountId: randomUUID() } })).status).toBe(404);

    // Requests: Bob asks, answers the policy, sends; Ada reviews, writes, approves.
    const opened = await eventually(async () => {
      const answer = await call('post', '/api/requests/', { token: bobToken, body: { record: recordId, status: 'new' } });
      expect(answer.status).toBe(201);
      return answer;
    });
    const requestId = opened.body['id'] as string;
    expect((await call('post', '/api/requests/', { token: bobToken, body: { record: recordId } })).status).toBe(200);
    const items = (opened.body['access_policies'] as Array<{ id: string; json_content: Array<Record<string, string>> }>).map((p) => ({
      id: p.id,
      json_content: p.json_content.map((item) => ({ ...item, agree: 'yes' })),
    }));
    expect(
      (
        await call('put', `/api/requests/${requestId}/`, {
          token: bobToken,
          body: { status: 'sent', purpose: 'Flood models', note: 'Thanks', access_policies: items },
        })
      ).status,
    ).toBe(200);
    expect((await call('get', '/api/requests/sent_requests', { token: bobToken })).status).toBe(200);
    expect((await call('get', '/api/requests/received_requests', { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/requests/${requestId}`, { token: adaToken })).status).toBe(200);
    expect((await call('post', '/api/request-messages/', { token: adaToken, body: { request: requestId, message: 'Which years?' } })).status).toBe(201);
    expect((await call('get', `/api/request-messages/?request=${requestId}`, { token: bobToken })).status).toBe(200);
    expect((await call('put', `/api/requests/${requestId}/`, { token: adaToken, body: { status: 'review' } })).status).toBe(200);
    expect((await call('put', `/api/requests/${requestId}/`, { token: adaToken, body: { status: 'approved', expires_at: '2099-12-31' } })).status).toBe(200);
    expect((await call('get', `/api/requests/audit/?record=${recordId}`, { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/requests/${randomUUID()}`, { token: bobToken })).status).toBe(404);

    // Relations: the record has no file, so it compares to nothing, but every answer keeps its shape.
    const pair = `record1=${recordId}&record2=${recordId}`;
    await eventually(async () => expect((await call('get', `/api/relations/structures/?${pair}`, { token: adaToken })).status).toBe(200));
    for (const relation of ['semantics', 'statistics', 'joining', 'linkability', 'link-rows'])
      expect((await call('get', `/api/relations/${relation}/?${pair}`, { token: adaToken })).status).toBe(200);
    expect((await call('get', `/api/relations/semantics/?${pair}&min=0.8&max=0.2`, { token: adaToken })).status).toBe(400);
    expect((await call('get', `/api/relations/joining/?record1=${recordId}&record2=${randomUUID()}`, { token: adaToken })).status).toBe(404);
    expect((await call('get', `/api/relations/joining/?${pair}`)).status).toBe(200);
    expect((await call('get', `/api/relations/link-rows/?${pair}`)).status).toBe(401);
    expect((await call('get', `/api/relations/infer-header/?record=${recordId}&header=Region`, { token: adaToken })).status).toBe(404);
    expect((await call('get', `/api/relations/joinable-with/?record=${recordId}`, { token: bobToken })).status).toBe(200);
    expect((await call('get', `/api/relations/top-related/?record=${recordId}`, { token: bobToken })).status).toBe(200);
    expect((await call('get', '/api/relations/definition/?word=rainfall')).status).toBe(200);
    expect((await call('get', '/api/relations/definition/?word=qqzzxx')).status).toBe(404);
    expect((await call('get', '/api/relations/definition/')).status).toBe(400);
    expect((await call('post', '/api/relations/get-merge-relations/', { token: adaToken, body: { records: [recordId, randomUUID()] } })).status).toBe(200);
    expect((await call('post', '/api/relations/get-merge-relations/', { token: adaToken, body: { records: [recordId] } })).status).toBe(400);
    const chosen = { record_left: recordId, record_right: randomUUID(), header_left: 'Region', header_right: 'Region' };
    const preview = await call('post', '/api/relations/merge-preview/', { token: adaToken, body: { merge_relations: [chosen], merge_type: 'horizontal' } });
    expect(preview.status).toBe(200);
    expect(preview.body['previews']).toEqual([]);
    expect(
      (await call('post', '/api/relations/merge-features/', { token: adaToken, body: { merge_relations: [chosen], merge_type: 'horizontal' } })).body['nodata'],
    ).toBe(true);
    expect(
      (await call('post', '/api/relations/merge-enc-cols/', { token: adaToken, body: { record_left: recordId, record_right: randomUUID() } })).status,
    ).toBe(200);
    expect((await call('post', '/api/relations/merge-enc-cols/', { token: adaToken, body: { record_left: recordId, record_right: recordId } })).status).toBe(
      400,
    );
    expect((await call('post', '/api/relations/link-records/', { token: adaToken, body: { record_left: recordId, record_right: randomUUID() } })).status).toBe(
      200,
    );

    // Jobs (none started above: the records took no part) and the health checks.
    expect((await call('post', '/api/tasks/jobs-list/', { token: adaToken, body: { active_flag: true } })).body['message']).toBe('No jobs were found.');
    expect((await call('post', '/api/tasks/job-content/', { token: adaToken, body: { job: randomUUID() } })).status).toBe(404);
    expect((await call('post', '/api/tasks/job-delete/', { token: adaToken, body: { job: randomUUID() } })).status).toBe(404);
    expect((await call('post', '/api/tasks/job-content/', { token: adaToken, body: {} })).status).toBe(400);
    expect((await call('post', '/api/tasks/jobs-list/', { body: {} })).status).toBe(401);
    expect((await call('get', '/health/live')).status).toBe(200);
    expect([200, 503]).toContain((await call('get', '/health/ready')).status);

    // Clean-up calls are part of the API too.
    expect((await call('delete', `/api/groups/${group.body['id']}/`, { token: adaToken })).status).toBe(204);
    expect((await call('delete', `/api/records/${recordId}/`, { token: adaToken })).status).toBe(204);
    expect((await call('delete', `/api/policies/${policy.body['id']}/`, { token: adaToken })).status).toBe(204);
    expect((await call('delete', '/api/user-api-keys/', { token: adaToken })).status).toBe(204);

    expect(mismatches).toEqual([]);
    expect(checked.size).toBeGreaterThan(50);
    // Every relations, jobs and health operation answered at least once on this path.
    const operations = new Set([...checked].map((entry) => entry.split(' → ')[0]));
    const described = Object.entries(answers.document.paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${template}`),
    );
    expect(described.filter((name) => /\/(relations|tasks|health)\//.test(name) && !operations.has(name))).toEqual([]);
  }, 300_000);

  it('publishes events whose envelopes match docs/asyncapi.yaml', async () => {
    const asyncapi = parse(readFileSync(ASYNCAPI_FILE, 'utf8')) as { components: { schemas: Record<string, object> } };
    const eventAjv = new Ajv({ strict: false, allErrors: true });
    addFormats(eventAjv);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const problems: string[] = [];
    const types = new Set<string>();
    try {
      for (const schema of SERVICE_SCHEMAS) {
        const exists = await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'outbox_events'`, [schema]);
        if (!exists.rowCount) continue;
        const { rows } = await client.query<{ type: string; version: number; envelope: unknown }>(
          `SELECT type, version, envelope FROM ${schema}.outbox_events ORDER BY seq`,
        );
        for (const row of rows) {
          const id = `${row.type}.v${row.version}`;
          types.add(id);
          const messageSchema = asyncapi.components.schemas[id];
          if (!messageSchema) {
            problems.push(`${id}: not in docs/asyncapi.yaml`);
            continue;
          }
          const validate = eventAjv.getSchema(id) ?? (eventAjv.addSchema(messageSchema, id), eventAjv.getSchema(id)!);
          if (!validate(row.envelope)) problems.push(`${id}: ${eventAjv.errorsText(validate.errors)}`);
        }
      }
    } finally {
      await client.end();
    }
    expect(problems).toEqual([]);
    // The path above publishes events of every service that has any.
    expect([...types].sort()).toEqual(
      expect.arrayContaining([
        'organisation.updated.v1',
        'user.registered.v1',
        'record.created.v1',
        'record.updated.v1',
        'record.deleted.v1',
        'policy.updated.v1',
        'request.created.v1',
        'request.updated.v1',
        'request.message-posted.v1',
        'mail.requested.v1',
      ]),
    );
  });
});
