import path from 'node:path';
import { ROUTES } from '../src/app/route-table';
import { ensureServerBuild, type EmbeddedProduct, startEmbeddedProduct } from '@dc/testing';
import { activateAndLogin, register } from './flows';

const PASSWORD = 'correct horse battery';

/** Who calls: nobody, four sub-accounts of the owner's organisation, the owner, the founder of another organisation. */
const ROLES = ['anonymous', 'basic', 'viewer', 'dataAdmin', 'accessAdmin', 'owner', 'otherOrg'] as const;
type Role = (typeof ROLES)[number];
type Statuses = Record<Role, number>;

/** What the calls refer to, made once before the table runs. */
interface Fixture {
  record: string;
  organisation: string;
  member: string;
}

interface Call {
  method: string;
  path: (f: Fixture) => string;
  body?: unknown;
  /** Called with a token of its own (logout ends it). */
  freshToken?: boolean;
  expect: Statuses;
}

/** Statuses written once per row: [anonymous, basic, viewer, dataAdmin, accessAdmin, owner, otherOrg]. */
const s = (...codes: [number, number, number, number, number, number, number]): Statuses =>
  Object.fromEntries(ROLES.map((role, i) => [role, codes[i]])) as Statuses;

/**
 * One row per prefix of the gateway's route table (apps/gateway/src/app/route-table.ts), keyed as
 * `<service> <prefix>`, with calls that show who may do what there. A route added to the table
 * without a row here fails the first test.
 */
const TABLE: Record<string, Call[]> = {
  'search /api/records': [{ method: 'GET', path: () => '/api/records/?query=rain', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'search /api/recordsannon': [{ method: 'GET', path: () => '/api/recordsannon/?query=rain', expect: s(200, 200, 200, 200, 200, 200, 200) }],
  'identity /api/register': [{ method: 'POST', path: () => '/api/register/', body: {}, expect: s(400, 400, 400, 400, 400, 400, 400) }],
  'identity /api-token-auth': [{ method: 'POST', path: () => '/api-token-auth/', body: {}, expect: s(400, 400, 400, 400, 400, 400, 400) }],
  'identity /api/logout': [{ method: 'POST', path: () => '/api/logout/', freshToken: true, expect: s(401, 204, 204, 204, 204, 204, 204) }],
  'identity /api/account': [
    { method: 'GET', path: () => '/api/account/user-account/', expect: s(401, 200, 200, 200, 200, 200, 200) },
    // Members see their organisation's accounts; another organisation sees its own list, never these.
    { method: 'GET', path: () => '/api/account/', expect: s(401, 200, 200, 200, 200, 200, 200) },
    { method: 'GET', path: (f) => `/api/account/${f.member}/`, expect: s(401, 200, 200, 200, 200, 200, 404) },
    { method: 'PATCH', path: (f) => `/api/account/${f.member}/`, body: { first_name: 'Renamed' }, expect: s(401, 403, 403, 403, 200, 200, 404) },
  ],
  'identity /api/password': [
    { method: 'POST', path: () => '/api/password/confirm/', body: { email: 'nobody@example.org' }, expect: s(200, 200, 200, 200, 200, 200, 200) },
  ],
  'identity /api/change-profile-information': [
    { method: 'PUT', path: () => '/api/change-profile-information/', body: {}, expect: s(401, 400, 400, 400, 400, 400, 400) },
  ],
  'identity /api/change-password': [{ method: 'PUT', path: () => '/api/change-password/', body: {}, expect: s(401, 400, 400, 400, 400, 400, 400) }],
  'identity /api/user-api-keys': [{ method: 'GET', path: () => '/api/user-api-keys/', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'identity /api/organisation': [
    { method: 'GET', path: (f) => `/api/organisation/${f.organisation}/`, expect: s(401, 200, 200, 200, 200, 200, 404) },
    {
      method: 'PUT',
      path: (f) => `/api/organisation/${f.organisation}/`,
      body: { name: 'Renamed Ltd', email: 'owner@example.org', description: 'Engines' },
      expect: s(401, 403, 403, 403, 200, 200, 404),
    },
  ],
  'identity /api/userprofile-autofill-list': [{ method: 'GET', path: () => '/api/userprofile-autofill-list', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'identity /api/organisation-autofill-list': [{ method: 'GET', path: () => '/api/organisation-autofill-list', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  // Single sign-on: the login screen's list and the exchange are anonymous; the settings are the Data Admin's (the other founder sees its own).
  'identity /api/sso': [
    { method: 'GET', path: () => '/api/sso/providers/', expect: s(200, 200, 200, 200, 200, 200, 200) },
    { method: 'POST', path: () => '/api/sso/exchange/', body: { result: 'unknown' }, expect: s(400, 400, 400, 400, 400, 400, 400) },
    { method: 'GET', path: () => '/api/sso/settings/', expect: s(401, 403, 403, 200, 403, 200, 200) },
    {
      method: 'PUT',
      path: () => '/api/sso/settings/',
      // A loopback issuer the product may not reach: the Data Admin's answer is the issuer's field error.
      body: {
        name: 'Keycloak',
        issuer: 'http://127.0.0.1:1/realms/x',
        client_id: 'c',
        client_secret: 's',
        allowed_domains: ['example.org'],
        client_type: 'BASIC',
      },
      expect: s(401, 403, 403, 400, 403, 400, 400),
    },
  ],
  'catalogue /api/records': [
    { method: 'GET', path: (f) => `/api/records/${f.record}/`, expect: s(404, 200, 200, 200, 200, 200, 404) },
    { method: 'PUT', path: (f) => `/api/records/${f.record}/`, body: { description: 'Edited' }, expect: s(401, 403, 403, 200, 403, 200, 404) },
    // Access RE: members without the Data Admin group need an approved request (403); who may download finds no file (404).
    { method: 'GET', path: (f) => `/api/records/${f.record}/download/`, expect: s(404, 403, 403, 404, 403, 404, 404) },
  ],
  'catalogue /api/files': [{ method: 'GET', path: () => '/api/files/download?token=forged', expect: s(403, 403, 403, 403, 403, 403, 403) }],
  // DCAT import: any signed-in caller may import into their own organisation (as creating a record); an empty body is refused.
  'catalogue /api/harvests': [{ method: 'POST', path: () => '/api/harvests/', body: {}, expect: s(401, 400, 400, 400, 400, 400, 400) }],
  'catalogue /api/accessoptions': [{ method: 'GET', path: () => '/api/accessoptions/', expect: s(200, 200, 200, 200, 200, 200, 200) }],
  'catalogue /api/visibilities': [
    { method: 'GET', path: (f) => `/api/visibilities/?associated_record=${f.record}`, expect: s(401, 200, 200, 200, 200, 200, 200) },
  ],
  'catalogue /api/policies': [{ method: 'GET', path: () => '/api/policies/', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'catalogue /api/groups': [{ method: 'GET', path: () => '/api/groups/', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'catalogue /api/connections': [{ method: 'GET', path: () => '/api/connections/list-connections/', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  'catalogue /api/connect-aws': [{ method: 'GET', path: () => '/api/connect-aws/get-accounts/', expect: s(401, 200, 200, 200, 200, 200, 200) }],
  // The DCAT-AP publication is anonymous and the same for everyone: only records everyone may see (the fixture's is not one).
  'catalogue /api/dcat': [
    { method: 'GET', path: () => '/api/dcat/catalog', expect: s(200, 200, 200, 200, 200, 200, 200) },
    { method: 'GET', path: (f) => `/api/dcat/datasets/${f.record}`, expect: s(404, 404, 404, 404, 404, 404, 404) },
    { method: 'GET', path: (f) => `/api/dcat/datasets/${f.record}/schema-org`, expect: s(404, 404, 404, 404, 404, 404, 404) },
  ],
  'requests /api/requests': [
    { method: 'GET', path: () => '/api/requests/sent_requests/', expect: s(401, 200, 200, 200, 200, 200, 200) },
    { method: 'GET', path: () => '/api/requests/received_requests/', expect: s(401, 200, 200, 200, 200, 200, 200) },
  ],
  // The list needs the request it belongs to.
  'requests /api/request-messages': [{ method: 'GET', path: () => '/api/request-messages/', expect: s(401, 400, 400, 400, 400, 400, 400) }],
  'relations /api/relations': [{ method: 'GET', path: (f) => `/api/relations/top-related/?record=${f.record}`, expect: s(404, 200, 200, 200, 200, 200, 404) }],
  // Everyone signed in lists their own jobs; a job of someone else is "not found" to everybody else.
  'jobs /api/tasks': [
    { method: 'POST', path: () => '/api/tasks/jobs-list/', body: {}, expect: s(401, 200, 200, 200, 200, 200, 200) },
    {
      method: 'POST',
      path: () => '/api/tasks/job-content/',
      body: { job: '00000000-0000-4000-8000-000000000000' },
      expect: s(401, 404, 404, 404, 404, 404, 404),
    },
    {
      method: 'POST',
      path: () => '/api/tasks/job-delete/',
      body: { job: '00000000-0000-4000-8000-000000000000' },
      expect: s(401, 404, 404, 404, 404, 404, 404),
    },
  ],
  // Data Admins manage their own organisation's webhooks (another organisation's founder sees their own, empty list).
  'jobs /api/webhooks': [
    { method: 'GET', path: () => '/api/webhooks/', expect: s(401, 403, 403, 200, 403, 200, 200) },
    { method: 'POST', path: () => '/api/webhooks/', body: {}, expect: s(401, 400, 400, 400, 400, 400, 400) },
    // An endpoint nobody has: Data Admins are told it is not found, other members that they may not.
    ...[
      ['GET', 'deliveries/'],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', 'rotate-secret/'],
      ['POST', 'test/'],
      ['POST', 'deliveries/00000000-0000-4000-8000-000000000000/resend/'],
    ].map(([method, rest]) => ({
      method,
      path: () => `/api/webhooks/00000000-0000-4000-8000-000000000000/${rest}`,
      body: method === 'PATCH' ? { active: false } : undefined,
      expect: s(401, 403, 403, 404, 403, 404, 404),
    })),
  ],
};

const rowKey = (route: { service: string; prefix: string; methods?: string[] }) =>
  `${route.service} ${route.prefix}${route.methods ? ` ${route.methods.join(',')}` : ''}`.replace(/ GET,HEAD$/, '');

describe('authorisation table: every route of the gateway x every kind of caller (embedded product)', () => {
  jest.setTimeout(360_000);
  let dataDir: string;
  let port: number;
  let product: EmbeddedProduct | undefined;
  const base = () => `http://127.0.0.1:${port}`;
  const tokens = {} as Record<Role, string | undefined>;
  let fixture: Fixture;

  const call = (method: string, pathname: string, token: string | undefined, body?: unknown) =>
    fetch(`${base()}${pathname}`, {
      method,
      headers: { ...(token ? { authorization: `JWT ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const login = async (username: string) =>
    ((await (await call('POST', '/api-token-auth/', undefined, { username, password: PASSWORD })).json()) as { token: string }).token;

  it('has a row for every route of the route table, and no row for a route that is gone', () => {
    expect(Object.keys(TABLE).sort()).toEqual(ROUTES.map(rowKey).sort());
  });

  describe('with the product running', () => {
    beforeAll(async () => {
      ensureServerBuild();
      product = await startEmbeddedProduct('authz');
      ({ dataDir, port } = product);
      const mailDir = path.join(dataDir, 'mail');
      for (const founder of ['owner', 'otherorg']) expect((await register(base(), founder, PASSWORD)).status).toBe(201);
      tokens.owner = await activateAndLogin(base(), mailDir, 'owner', PASSWORD);
      tokens.otherOrg = await activateAndLogin(base(), mailDir, 'otherorg', PASSWORD);
      const members: Array<[Role, string, number[]]> = [
        ['basic', 'BASIC', [3]],
        ['viewer', 'STANDARD', [3]],
        ['dataAdmin', 'STANDARD', [2]],
        ['accessAdmin', 'STANDARD', [1]],
      ];
      let member = '';
      for (const [role, clientType, groups] of members) {
        const created = await call('POST', '/api/account/', tokens.owner, {
          username: role.toLowerCase(),
          email: `${role.toLowerCase()}@example.org`,
          first_name: 'Member',
          last_name: role,
          password: PASSWORD,
          client_type: clientType,
          groups,
        });
        expect(created.status).toBe(201);
        member = ((await created.json()) as { id: string }).id;
        tokens[role] = await login(role.toLowerCase());
      }
      const me = (await (await call('GET', '/api/account/user-account/', tokens.owner)).json()) as { organisation: string };
      const record = await call('POST', '/api/records/', tokens.owner, { name: 'Private rainfall', description: 'Daily rainfall totals', access: 'RE' });
      expect(record.status).toBe(201);
      fixture = { record: ((await record.json()) as { id: string }).id, organisation: me.organisation, member };
    }, 360_000);

    afterAll(async () => {
      await product?.stop();
    });

    it('answers each call with the status written in the table, for each caller', async () => {
      const actual: Record<string, Statuses[]> = {};
      const differences: string[] = [];
      for (const [row, calls] of Object.entries(TABLE)) {
        actual[row] = [];
        for (const entry of calls) {
          const statuses = {} as Statuses;
          for (const role of ROLES) {
            const token =
              role === 'anonymous'
                ? undefined
                : entry.freshToken
                  ? await login(role === 'owner' ? 'owner' : role === 'otherOrg' ? 'otherorg' : role.toLowerCase())
                  : tokens[role];
            const response = await call(entry.method, entry.path(fixture), token, entry.body);
            await response.arrayBuffer();
            statuses[role] = response.status;
            if (response.status !== entry.expect[role])
              differences.push(`${row}: ${entry.method} ${entry.path(fixture)} as ${role}: expected ${entry.expect[role]}, got ${response.status}`);
          }
          actual[row].push(statuses);
        }
      }
      expect(differences).toEqual([]);
    });
  });
});
