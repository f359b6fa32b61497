import { JwtService } from '@nestjs/jwt';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { SecretCipher } from '@dc/platform';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';

describeInfra('identity API: /api/user-api-keys/ and exchanging them for a JWT (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const logs: string[] = [];
  let ada: Awaited<ReturnType<IdentityTestApp['founder']>>;
  let pair: { api_token: string; api_secret: string };
  /** Every secret handed out or sent here; none may ever reach the logs. */
  const secrets = new Set<string>();
  const exchange = (username: string, password: string) => {
    secrets.add(password);
    return identity.http().post('/api-token-auth/').set('X-Forwarded-For', identity.nextAddress()).send({ username, password });
  };
  const makePair = async (token: string) => {
    const response = await identity.http().post('/api/user-api-keys/').set(auth(token)).send({ password: PASSWORD });
    if (response.body.api_secret) secrets.add(response.body.api_secret);
    return response;
  };
  /** The service logged the calls (at trace level), and none of their secrets. */
  const expectNoSecretInLogs = () => {
    const logged = logs.join('\n');
    expect(logged).toContain('/api-token-auth/');
    for (const secret of secrets) expect({ secret, logged: logged.includes(secret) }).toEqual({ secret, logged: false });
  };

  beforeAll(async () => {
    db = await createTestDatabase('identity_api_keys');
    identity = await IdentityTestApp.start(db.url, { logs });
    ada = await identity.founder('ada');
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('answers nulls before any pair was made', async () => {
    const response = await identity.http().get('/api/user-api-keys/').set(auth(ada.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ api_token: null, api_secret: null, created: null });
  });

  it("needs the caller's password to make a pair", async () => {
    expect((await identity.http().post('/api/user-api-keys/').set(auth(ada.token)).send({})).body).toEqual({ password: ['This field is required.'] });
    const wrong = await identity.http().post('/api/user-api-keys/').set(auth(ada.token)).send({ password: 'not it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ password: ['Wrong password.'] });
    expect((await identity.http().post('/api/user-api-keys/').send({ password: PASSWORD })).status).toBe(401);
    expect((await identity.http().get('/api/user-api-keys/')).status).toBe(401);
  });

  it('makes a pair and shows its secret once: later calls say that one exists and when it was made, never the secret', async () => {
    const response = await identity.http().post('/api/user-api-keys').set(auth(ada.token)).send({ password: PASSWORD });
    secrets.add(response.body.api_secret);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      api_token: expect.stringMatching(/^dc_[0-9a-f]{40}$/),
      api_secret: expect.stringMatching(/^[\w-]{43}$/),
      created: expect.any(String),
    });
    pair = response.body;
    expect(Math.abs(Date.parse(response.body.created) - Date.now())).toBeLessThan(60_000);
    const later = await identity.http().get('/api/user-api-keys').set(auth(ada.token));
    expect(later.body).toEqual({ api_token: pair.api_token, api_secret: null, created: response.body.created });
    expect(JSON.stringify(later.body)).not.toContain(pair.api_secret);
  });

  it('stores only a digest of the secret (it cannot be read back), and never logs it', async () => {
    const [row] = await identity.sql<{ token: string; secret_verifier: string }>('SELECT token, secret_verifier FROM identity.api_keys WHERE user_id = $1', [
      ada.id,
    ]);
    expect(row.token).toBe(pair.api_token);
    expect(row.secret_verifier).toMatch(/^s1\.[\w-]{43}$/);
    const [{ dump }] = await identity.sql<{ dump: string }>("SELECT string_agg(t::text, ' ') AS dump FROM identity.api_keys t");
    expect(dump).not.toContain(pair.api_secret);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(pair.api_secret);
  });

  it('a pair made before secrets were shown once (stored encrypted) still works, is not shown, and its next use stores a digest', async () => {
    const member = await identity.member(ada.token, 'legacy', { groups: [3] });
    const legacy = { api_token: `dc_${'a'.repeat(40)}`, api_secret: 'legacy-secret-legacy-secret-legacy-secret-1' };
    secrets.add(legacy.api_secret);
    const sealed = identity.app.get(SecretCipher).encrypt(legacy.api_secret, member.id);
    await identity.sql('INSERT INTO identity.api_keys (user_id, token, secret_verifier) VALUES ($1, $2, $3)', [member.id, legacy.api_token, sealed]);
    expect((await identity.http().get('/api/user-api-keys/').set(auth(member.token))).body).toEqual({
      api_token: legacy.api_token,
      api_secret: null,
      created: expect.any(String),
    });
    expect((await exchange(legacy.api_token, 'wrong')).status).toBe(400);
    expect((await exchange(legacy.api_token, legacy.api_secret)).status).toBe(200);
    const [row] = await identity.sql<{ secret_verifier: string }>('SELECT secret_verifier FROM identity.api_keys WHERE user_id = $1', [member.id]);
    expect(row.secret_verifier).toMatch(/^s1\./);
    expect((await exchange(legacy.api_token, legacy.api_secret)).status).toBe(200);
    expectNoSecretInLogs();
  });

  it('exchanges api_token and api_secret at /api-token-auth/ for a JWT of the owner', async () => {
    const response = await exchange(pair.api_token, pair.api_secret);
    expect(response.status).toBe(200);
    expect(identity.app.get(JwtService).decode(response.body.token)).toMatchObject({ sub: ada.id, username: 'ada' });
    const me = await identity.http().get('/api/account/user-account/').set(auth(response.body.token));
    expect(me.body.id).toBe(ada.id);
    expectNoSecretInLogs();
  });

  it('refuses a wrong secret with the login answer', async () => {
    const response = await exchange(pair.api_token, 'not the secret');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    // A secret sent under an unknown token fails too, and is not logged either.
    expect((await exchange('dc_0000000000000000000000000000000000000000', pair.api_secret)).status).toBe(400);
    expectNoSecretInLogs();
  });

  it('replaces the old pair with a new one', async () => {
    const renewed = await makePair(ada.token);
    expect(renewed.body.api_token).not.toBe(pair.api_token);
    expect((await exchange(pair.api_token, pair.api_secret)).status).toBe(400);
    expect((await exchange(renewed.body.api_token, renewed.body.api_secret)).status).toBe(200);
    expect(await identity.sql('SELECT user_id FROM identity.api_keys WHERE user_id = $1', [ada.id])).toHaveLength(1);
    pair = renewed.body;
    expectNoSecretInLogs();
  });

  it('DELETE revokes the pair', async () => {
    expect((await identity.http().delete('/api/user-api-keys/').set(auth(ada.token))).status).toBe(204);
    expect((await identity.http().get('/api/user-api-keys/').set(auth(ada.token))).body).toEqual({ api_token: null, api_secret: null, created: null });
    expect((await exchange(pair.api_token, pair.api_secret)).status).toBe(400);
    expectNoSecretInLogs();
  });

  it("gives nothing for a deactivated owner's pair", async () => {
    const member = await identity.member(ada.token, 'scripted', { groups: [3] });
    const keys = await makePair(member.token);
    expect((await exchange(keys.body.api_token, keys.body.api_secret)).status).toBe(200);
    await identity.http().patch(`/api/account/${member.id}/`).set(auth(ada.token)).send({ active: false });
    expect((await exchange(keys.body.api_token, keys.body.api_secret)).status).toBe(400);
    expectNoSecretInLogs();
  });
});
