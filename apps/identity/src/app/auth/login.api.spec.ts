import { JwtService } from '@nestjs/jwt';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };
const TOO_MANY = { detail: 'Too many login attempts. Please try again later.' };

describeInfra('identity API: POST /api-token-auth/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const login = (username: string, password: string, address = identity.nextAddress()) => identity.http().post('/api-token-auth/').set('X-Forwarded-For', address).send({ username, password });

  beforeAll(async () => {
    db = await createTestDatabase('identity_login');
    identity = await IdentityTestApp.start(db.url);
    await identity.founder('ada');
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('answers {token}: a JWT of the account that lives 24 hours and works as `Authorization: JWT <token>`', async () => {
    const response = await identity.http().post('/api-token-auth').set('X-Forwarded-For', identity.nextAddress()).send({ username: 'ada', password: PASSWORD });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['token']);
    const claims = identity.app.get(JwtService).decode(response.body.token);
    const [user] = await identity.sql<{ id: string; organisation_id: string }>("SELECT id, organisation_id FROM identity.users WHERE username = 'ada'");
    expect(claims).toMatchObject({
      sub: user.id,
      username: 'ada',
      org: user.organisation_id,
      ct: 'STANDARD',
      groups: [1, 2, 3],
      pv: 1,
      perms: expect.arrayContaining(['account.add_userprofile', 'account.change_userprofile', 'account.delete_userprofile', 'account.change_organisation', 'records.change_record', 'records.view_record']),
    });
    expect(claims.exp - claims.iat).toBe(24 * 60 * 60);
    const me = await identity.http().get('/api/account/user-account/').set(auth(response.body.token));
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('ada');
  });

  it('takes the username in any case', async () => {
    expect((await login('ADA', PASSWORD)).status).toBe(200);
  });

  it('gives a wrong password, an unknown user and an inactive account the same 400', async () => {
    await identity.signUp('inactive', { email: 'inactive@example.org' });
    for (const [username, password] of [['ada', 'wrong password'], ['nobody', PASSWORD], ['inactive', PASSWORD]]) {
      const response = await login(username, password);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_CREDENTIALS);
    }
  });

  it('requires both fields', async () => {
    const response = await identity.http().post('/api-token-auth/').send({ username: ' ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ username: ['This field is required.'], password: ['This field is required.'] });
  });

  it('refuses an account after 5 failures in 15 minutes, even with the right password and from another address', async () => {
    await identity.founder('grace', { email: 'grace@example.org' });
    for (let i = 0; i < 5; i++) expect((await login('grace', `wrong ${i}`)).status).toBe(400);
    const locked = await login('grace', PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual(TOO_MANY);
    // Failures older than the window no longer count.
    await identity.sql("UPDATE identity.login_failures SET failed_at = now() - interval '16 minutes' WHERE subject = 'grace'");
    expect((await login('grace', PASSWORD)).status).toBe(200);
  });

  it('limits unknown names as well, so the limit does not reveal who exists', async () => {
    for (let i = 0; i < 5; i++) expect((await login('Nobody-Here', 'x')).status).toBe(400);
    expect((await login('nobody-here', 'x')).status).toBe(429);
  });

  it('forgives an account its failures after a successful login', async () => {
    await identity.founder('linus', { email: 'linus@example.org' });
    for (let i = 0; i < 4; i++) await login('linus', 'wrong');
    expect((await login('linus', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login('linus', 'wrong')).status).toBe(400);
    expect((await login('linus', PASSWORD)).status).toBe(200);
  });

  it('refuses an address after 20 failures in 15 minutes, whatever the account', async () => {
    const address = '192.0.2.77';
    for (let i = 0; i < 20; i++) expect((await login(`guess-${i}`, 'x', address)).status).toBe(400);
    const refused = await login('ada', PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    expect((await login('ada', PASSWORD, '192.0.2.78')).status).toBe(200);
  });

  it('keeps the counts in the database, so every identity process applies the same limits', async () => {
    const other = await IdentityTestApp.start(db.url);
    try {
      await identity.founder('margaret', { email: 'margaret@example.org' });
      for (let i = 0; i < 5; i++) await login('margaret', 'wrong');
      const elsewhere = await other.http().post('/api-token-auth/').set('X-Forwarded-For', '198.51.100.1').send({ username: 'margaret', password: PASSWORD });
      expect(elsewhere.status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('refuses tokens that are not signed by the service, and expired ones', async () => {
    const jwt = identity.app.get(JwtService);
    const forged = new JwtService({ secret: 'x'.repeat(40) }).sign({ sub: 'someone' });
    expect((await identity.http().get('/api/account/user-account/').set(auth(forged))).status).toBe(401);
    const [user] = await identity.sql<{ id: string; organisation_id: string }>("SELECT id, organisation_id FROM identity.users WHERE username = 'ada'");
    const expired = jwt.sign({ sub: user.id, username: 'ada', org: user.organisation_id, ct: 'STANDARD', perms: [], groups: [1, 2, 3], pv: 1 }, { expiresIn: -10 });
    const response = await identity.http().get('/api/account/user-account/').set(auth(expired));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
  });

  it('tells the gateway at internal/token-status whether a token is still current', async () => {
    const grace = await identity.founder('hedy', { email: 'hedy@example.org' });
    expect((await identity.http().get('/internal/token-status').set(auth(grace.token))).status).toBe(204);
    expect((await identity.http().get('/internal/token-status')).status).toBe(401);
    const changed = await identity.http().put('/api/change-password/').set(auth(grace.token)).send({ old_password: PASSWORD, new_password: 'a brand new secret', new_password_confirm: 'a brand new secret' });
    expect(changed.status).toBe(200);
    const stale = await identity.http().get('/internal/token-status').set(auth(grace.token));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
    expect((await identity.http().get('/internal/token-status').set(auth(await identity.login('hedy', 'a brand new secret')))).status).toBe(204);
  });
});
