import { createTestDatabase, describeInfra, OidcTestProvider, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PUBLIC_URL, Roles } from '../../testing/identity-test-app';
import { SSO_ERRORS } from './sso';

const REDIRECT_URI = `${PUBLIC_URL}/api/sso/callback/`;
const client = (id: string, secret = `${id}-secret`) => ({ client_id: id, client_secret: secret, redirect_uris: [REDIRECT_URI] });
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };

describeInfra('identity API: single sign-on with a real OpenID provider (oidc-provider, real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let roles: Roles;
  let engines: OidcTestProvider;
  let looms: OidcTestProvider;
  const logs: string[] = [];
  const providers: OidcTestProvider[] = [];
  const providerIds: Record<string, string> = {};

  const settings = (issuer: string, overrides: Record<string, unknown> = {}) => ({
    name: 'Engines Keycloak',
    issuer,
    client_id: 'catalogue',
    client_secret: 'catalogue-secret',
    allowed_domains: ['engines.example'],
    client_type: 'STANDARD',
    ...overrides,
  });
  const accounts = () => identity.sql<{ n: string }>('SELECT count(*) AS n FROM identity.users').then((rows) => Number(rows[0].n));

  /** The whole sign-in as the browser does it; returns the exchange's answer and what a replay needs. */
  async function signIn(provider: OidcTestProvider, providerId: string, login: string, tamper?: (callback: URL) => void) {
    const start = await identity.http().get(`/api/sso/providers/${providerId}/start/`);
    expect(start.status).toBe(302);
    const cookie = ([] as string[])
      .concat(start.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('dc_sso='))
      ?.split(';')[0];
    expect(cookie).toBeDefined();
    const authorization = new URL(start.headers.location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const back = new URL(await provider.signIn(authorization.href, login));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    tamper?.(back);
    const callback = await identity
      .http()
      .get(`${back.pathname}${back.search}`)
      .set('Cookie', cookie ?? '');
    return { ...(await complete(callback.status, callback.headers.location)), callbackPath: `${back.pathname}${back.search}`, cookie: cookie ?? '' };
  }

  async function complete(status: number, location: string) {
    expect(status).toBe(302);
    expect(location.startsWith(`${PUBLIC_URL}/#/login/sso?result=`)).toBe(true);
    const result = new URLSearchParams(location.split('?')[1]).get('result') ?? '';
    const exchange = await identity.http().post('/api/sso/exchange/').send({ result });
    return { exchange, result };
  }

  async function me(token: string) {
    const response = await identity.http().get('/api/account/user-account/').set(auth(token));
    expect(response.status).toBe(200);
    return response.body;
  }

  beforeAll(async () => {
    db = await createTestDatabase('identity_sso');
    identity = await IdentityTestApp.start(db.url, { env: { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' }, logs });
    roles = await identity.roles('sso');
    engines = await OidcTestProvider.start({
      clients: [client('catalogue'), client('wrong-secret')],
      accounts: {
        ada: { email: 'ada@engines.example', email_verified: true, given_name: 'Ada', family_name: 'Lovelace', preferred_username: 'ada' },
        eve: { email: 'eve@elsewhere.example', email_verified: true, given_name: 'Eve' },
        taken: { email: 'sso-founder@example.org', email_verified: true },
      },
    });
    looms = await OidcTestProvider.start({
      clients: [client('catalogue')],
      accounts: { ada: { email: 'ada@looms.example', given_name: 'Ada', family_name: 'Jacquard' } },
    });
    providers.push(engines, looms);
  });
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.stop()));
    await identity?.close();
    await db?.drop();
  });

  it('lets the Data Admin alone read and write the settings; the client secret is sealed and never returned', async () => {
    for (const caller of [roles.basic, roles.dataViewer, roles.accessAdmin]) {
      const answer = await identity.http().get('/api/sso/settings/').set(auth(caller.token));
      expect([answer.status, answer.body]).toEqual([403, FORBIDDEN]);
      const put = await identity.http().put('/api/sso/settings/').set(auth(caller.token)).send(settings(engines.issuer));
      expect(put.status).toBe(403);
    }
    expect((await identity.http().get('/api/sso/settings/')).status).toBe(401);
    const empty = await identity.http().get('/api/sso/settings/').set(auth(roles.dataAdmin.token));
    expect(empty.body).toEqual({ redirect_uri: REDIRECT_URI, provider: null });

    const missingSecret = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(roles.dataAdmin.token))
      .send(settings(engines.issuer, { client_secret: undefined }));
    expect([missingSecret.status, missingSecret.body]).toEqual([400, { client_secret: ['Enter the client secret the provider gave the product.'] }]);
    const invalid = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(roles.dataAdmin.token))
      .send(settings('not a url', { allowed_domains: ['not a domain'], client_type: 'GOLD' }));
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body).sort()).toEqual(['allowed_domains', 'client_type', 'issuer']);

    const saved = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(roles.dataAdmin.token))
      .send(settings(engines.issuer, { allowed_domains: ['@Engines.Example'] }));
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      redirect_uri: REDIRECT_URI,
      provider: expect.objectContaining({
        name: 'Engines Keycloak',
        issuer: engines.issuer,
        client_id: 'catalogue',
        client_secret_set: true,
        allowed_domains: ['engines.example'],
        client_type: 'STANDARD',
      }),
    });
    expect(JSON.stringify(saved.body)).not.toContain('catalogue-secret');
    providerIds.engines = saved.body.provider.id;
    const [row] = await identity.sql<{ client_secret_encrypted: string }>('SELECT client_secret_encrypted FROM identity.sso_providers WHERE id = $1', [
      providerIds.engines,
    ]);
    expect(row.client_secret_encrypted).toMatch(/^v1\./);
    expect(row.client_secret_encrypted).not.toContain('catalogue-secret');

    // Saved again without the secret: the sealed one is kept (the sign-ins below use it).
    const renamed = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(roles.dataAdmin.token))
      .send(settings(engines.issuer, { client_secret: undefined, name: 'Engines' }));
    expect([renamed.status, renamed.body.provider.id, renamed.body.provider.name]).toEqual([200, providerIds.engines, 'Engines']);
    const read = await identity.http().get('/api/sso/settings/').set(auth(roles.founder.token));
    expect(read.body.provider).toEqual(renamed.body.provider);
  });

  it('refuses an issuer whose discovery document cannot be read', async () => {
    const down = await identity.http().put('/api/sso/settings/').set(auth(roles.dataAdmin.token)).send(settings('http://127.0.0.1:1/realms/none'));
    expect(down.status).toBe(400);
    expect(down.body.issuer[0]).toContain('could not be read');
  });

  it('creates the account at the first sign-in with the configured plan, and matches later sign-ins on issuer and subject even when the email changed', async () => {
    const before = await accounts();
    const first = await signIn(engines, providerIds.engines, 'ada');
    expect(first.exchange.status).toBe(200);
    const account = await me(first.exchange.body.token);
    expect(account).toEqual(
      expect.objectContaining({
        email: 'ada@engines.example',
        first_name: 'Ada',
        last_name: 'Lovelace',
        organisation: roles.founder.organisationId,
        client_type: 'STANDARD',
      }),
    );
    expect(await accounts()).toBe(before + 1);
    expect((await identity.events(account.id)).map((e) => e.type)).toEqual(['user.registered', 'user.updated']);
    const [link] = await identity.sql<{ issuer: string; subject: string }>('SELECT issuer, subject FROM identity.sso_identities WHERE user_id = $1', [
      account.id,
    ]);
    expect(link).toEqual({ issuer: engines.issuer, subject: 'ada' });

    // The result is exchanged once.
    const again = await identity.http().post('/api/sso/exchange/').send({ result: first.result });
    expect([again.status, again.body]).toEqual([400, { detail: SSO_ERRORS.unknownResult }]);

    engines.setAccounts({ ada: { email: 'ada.lovelace@engines.example', email_verified: true, given_name: 'Ada' }, eve: { email: 'eve@elsewhere.example' } });
    const later = await signIn(engines, providerIds.engines, 'ada');
    expect(later.exchange.status).toBe(200);
    expect((await me(later.exchange.body.token)).id).toBe(account.id);
    expect(await accounts()).toBe(before + 1);
  });

  it('refuses a person of another email domain, a replayed callback, a tampered state and another browser, creating nothing', async () => {
    const before = await accounts();
    const eve = await signIn(engines, providerIds.engines, 'eve');
    expect([eve.exchange.status, eve.exchange.body]).toEqual([400, { detail: SSO_ERRORS.wrongDomain }]);

    const ada = await signIn(engines, providerIds.engines, 'ada');
    expect(ada.exchange.status).toBe(200);
    const replay = await identity.http().get(ada.callbackPath).set('Cookie', ada.cookie);
    expect((await complete(replay.status, replay.headers.location)).exchange.body).toEqual({ detail: SSO_ERRORS.unknownAttempt });
    // The used code under a fresh sign-in's state and cookie: the provider refuses the code itself.
    const fresh = await identity.http().get(`/api/sso/providers/${providerIds.engines}/start/`);
    const freshCookie = ([] as string[]).concat(fresh.headers['set-cookie'] ?? [])[0].split(';')[0];
    const usedCode = new URL(ada.callbackPath, PUBLIC_URL);
    usedCode.searchParams.set('state', new URL(fresh.headers.location).searchParams.get('state') ?? '');
    const replayedCode = await identity.http().get(`${usedCode.pathname}${usedCode.search}`).set('Cookie', freshCookie);
    expect((await complete(replayedCode.status, replayedCode.headers.location)).exchange.body).toEqual({ detail: SSO_ERRORS.codeRejected });

    const tampered = await signIn(engines, providerIds.engines, 'ada', (callback) =>
      callback.searchParams.set('state', `${callback.searchParams.get('state')}x`),
    );
    expect(tampered.exchange.body).toEqual({ detail: SSO_ERRORS.unknownAttempt });

    const start = await identity.http().get(`/api/sso/providers/${providerIds.engines}/start/`);
    const back = new URL(await engines.signIn(start.headers.location, 'ada'));
    const otherBrowser = await identity.http().get(`${back.pathname}${back.search}`).set('Cookie', 'dc_sso=someone-elses');
    expect((await complete(otherBrowser.status, otherBrowser.headers.location)).exchange.body).toEqual({ detail: SSO_ERRORS.otherBrowser });

    // The provider's identity of an email that already has a password account is not linked by email.
    engines.setAccounts({ taken: { email: 'sso-founder@engines.example' } });
    await identity.sql(`UPDATE identity.users SET email = 'sso-founder@engines.example' WHERE id = $1`, [roles.founder.id]);
    const taken = await signIn(engines, providerIds.engines, 'taken');
    expect(taken.exchange.body).toEqual({ detail: SSO_ERRORS.emailTaken });
    expect(await accounts()).toBe(before);
  });

  it('explains a wrong client secret, an expired ID token and an unreachable provider, creating nothing', async () => {
    const before = await accounts();
    engines.setAccounts({ ada: { email: 'ada@engines.example' } });
    const org = roles.otherAdmin;
    const wrongSecret = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(org.token))
      .send(settings(engines.issuer, { name: 'Wrong secret', client_id: 'wrong-secret', client_secret: 'not-the-secret' }));
    expect(wrongSecret.status).toBe(200);
    const refused = await signIn(engines, wrongSecret.body.provider.id, 'ada');
    expect(refused.exchange.body).toEqual({ detail: SSO_ERRORS.providerRefusedClient });

    // The provider's clock two hours behind: its ID tokens (valid 10 minutes) arrive long expired.
    const late = await OidcTestProvider.start({
      clients: [client('catalogue')],
      accounts: { ada: { email: 'ada@engines.example' } },
      clockOffsetSeconds: -7200,
      idTokenTtlSeconds: 600,
    });
    providers.push(late);
    const lateSettings = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(org.token))
      .send(settings(late.issuer, { name: 'Late clock' }));
    expect(lateSettings.status).toBe(200);
    const expired = await signIn(late, lateSettings.body.provider.id, 'ada');
    expect(expired.exchange.body).toEqual({ detail: SSO_ERRORS.tokenInvalid });
    expect(logs.join('\n')).toMatch(/failed \(token-invalid\)[^\n]*expiration is past current timestamp/);

    await late.stop();
    const unreachable = await identity.http().get(`/api/sso/providers/${lateSettings.body.provider.id}/start/`);
    expect((await complete(unreachable.status, unreachable.headers.location)).exchange.body).toEqual({ detail: SSO_ERRORS.providerUnreachable });
    expect(await accounts()).toBe(before);
    expect((await identity.http().delete('/api/sso/settings/').set(auth(org.token))).status).toBe(204);
  });

  it('serves two organisations with two providers: each person lands in the organisation of the provider they chose', async () => {
    const saved = await identity
      .http()
      .put('/api/sso/settings/')
      .set(auth(roles.otherAdmin.token))
      .send(settings(looms.issuer, { name: 'Looms Entra', allowed_domains: ['looms.example'], client_type: 'BASIC' }));
    expect(saved.status).toBe(200);
    providerIds.looms = saved.body.provider.id;
    const list = await identity.http().get('/api/sso/providers/');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: providerIds.engines, name: 'Engines' },
      { id: providerIds.looms, name: 'Looms Entra' },
    ]);

    // The same subject ("ada") at two issuers: two people, two accounts.
    const atLooms = await signIn(looms, providerIds.looms, 'ada');
    expect(atLooms.exchange.status).toBe(200);
    const jacquard = await me(atLooms.exchange.body.token);
    expect(jacquard).toEqual(expect.objectContaining({ email: 'ada@looms.example', organisation: roles.otherAdmin.organisationId, client_type: 'BASIC' }));
    engines.setAccounts({ ada: { email: 'ada.lovelace@engines.example' } });
    const atEngines = await signIn(engines, providerIds.engines, 'ada');
    const lovelace = await me(atEngines.exchange.body.token);
    expect(lovelace.organisation).toBe(roles.founder.organisationId);
    expect(lovelace.id).not.toBe(jacquard.id);

    // An Access Admin deactivates the account: the provider's sign-in no longer gets in.
    const deactivated = await identity.http().patch(`/api/account/${lovelace.id}/`).set(auth(roles.founder.token)).send({ active: false });
    expect(deactivated.status).toBe(200);
    expect((await signIn(engines, providerIds.engines, 'ada')).exchange.body).toEqual({ detail: SSO_ERRORS.inactive });

    const unknown = await identity.http().get('/api/sso/providers/00000000-0000-4000-8000-000000000000/start/');
    expect((await complete(unknown.status, unknown.headers.location)).exchange.body).toEqual({ detail: SSO_ERRORS.unknownProvider });
  });
});
