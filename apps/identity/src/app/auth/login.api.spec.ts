import { JwtService } from '@nestjs/jwt';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };
const TOO_MANY = { detail: 'Too many failed login attempts. Please wait before trying again.' };

describeInfra('identity API: POST /api-token-auth/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const login = (username: string, password: string, address = identity.nextAddress()) =>
    identity.http().post('/api-token-auth/').set('X-Forwarded-For', address).send({ username, password });

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
      perms: expect.arrayContaining([
        'account.add_userprofile',
        'account.change_userprofile',
        'account.delete_userprofile',
        'account.change_organisation',
        'records.change_record',
        'records.view_record',
      ]),
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
    for (const [username, password] of [
      ['ada', 'wrong password'],
      ['nobody', PASSWORD],
      ['inactive', PASSWORD],
    ]) {
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

  /** Moves an address and account pair's failures back in time, as if the client had waited. */
  const wait = (seconds: number) => identity.sql(`UPDATE identity.login_failures SET failed_at = failed_at - make_interval(secs => $1)`, [seconds]);

  it('slows one address guessing one account with growing delays and Retry-After; the owner elsewhere signs in meanwhile', async () => {
    await identity.founder('grace', { email: 'grace@example.org' });
    const attacker = '203.0.113.50';
    for (let i = 0; i < 3; i++) expect((await login('grace', `wrong ${i}`, attacker)).status).toBe(400);
    const slowed = await login('grace', PASSWORD, attacker);
    expect(slowed.status).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.body).toEqual(TOO_MANY);
    // The owner, from anywhere else, is not held up by the guesser.
    expect((await login('grace', PASSWORD, '198.51.100.20')).status).toBe(200);
    await wait(1.5);
    expect((await login('grace', 'wrong 3', attacker)).status).toBe(400);
    const longer = await login('grace', 'wrong 4', attacker);
    expect(longer.status).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
    await wait(60);
    for (let i = 5; i < 14; i++) {
      await wait(15 * 60);
      expect((await login('grace', `wrong ${i}`, attacker)).status).toBe(400);
    }
    // 13 failures: the delay has reached its 15-minute ceiling and stays there.
    expect(Number((await login('grace', PASSWORD, attacker)).headers['retry-after'])).toBe(15 * 60);
    await wait(15 * 60);
    expect((await login('grace', PASSWORD, attacker)).status).toBe(200);
    // A successful login forgives the pair's failures.
    expect((await login('grace', 'wrong again', attacker)).status).toBe(400);
    expect((await login('grace', PASSWORD, attacker)).status).toBe(200);
  });

  it('limits unknown names as well, so the limit does not reveal who exists', async () => {
    const address = '203.0.113.51';
    for (let i = 0; i < 3; i++) expect((await login('Nobody-Here', 'x', address)).status).toBe(400);
    expect((await login('nobody-here', 'x', address)).status).toBe(429);
  });

  it('slows, never blocks, an address guessing many accounts: 50 free failures in 15 minutes, then waits of at most a minute', async () => {
    const address = '192.0.2.77';
    await identity.sql(`INSERT INTO identity.login_failures (scope, subject) SELECT 'address', $1 FROM generate_series(1, 50)`, [address]);
    const refused = await login('ada', PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await login('ada', PASSWORD, '192.0.2.78')).status).toBe(200);
    await identity.sql(`INSERT INTO identity.login_failures (scope, subject) SELECT 'address', $1 FROM generate_series(1, 50)`, [address]);
    expect(Number((await login('ada', PASSWORD, address)).headers['retry-after'])).toBe(60);
    await wait(61);
    expect((await login('ada', PASSWORD, address)).status).toBe(200);
  });

  it('keeps the counts in the database, so every identity process applies the same limits', async () => {
    const other = await IdentityTestApp.start(db.url);
    try {
      await identity.founder('margaret', { email: 'margaret@example.org' });
      for (let i = 0; i < 3; i++) await login('margaret', 'wrong', '198.51.100.1');
      const elsewhere = await other.http().post('/api-token-auth/').set('X-Forwarded-For', '198.51.100.1').send({ username: 'margaret', password: PASSWORD });
      expect(elsewhere.status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('limits sign-ups to 10 an hour per address (the machine itself excepted), with Retry-After', async () => {
    const signUp = (username: string, address?: string) => {
      const request = identity.http().post('/api/register/');
      if (address) request.set('X-Forwarded-For', address);
      return request.send({
        username,
        email: `${username}@example.org`,
        first_name: 'Sign',
        last_name: 'Up',
        description: 'Tests',
        password: 'ledger and quill 1850',
        password_confirm: 'ledger and quill 1850',
      });
    };
    for (let i = 0; i < 10; i++) expect((await signUp(`signup${i}`, '203.0.113.90')).status).toBe(201);
    const refused = await signUp('signup10', '203.0.113.90');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Too many sign-ups from your address. Please try again later.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await signUp('signup11', '203.0.113.91')).status).toBe(201);
    expect((await signUp('signup12')).status).toBe(201);
  });

  it('ends a token on the server at logout: it is refused from then on, other sessions of the account keep working', async () => {
    const first = (await login('ada', PASSWORD)).body.token;
    const second = (await login('ada', PASSWORD)).body.token;
    expect((await identity.http().post('/api/logout/').set(auth(first))).status).toBe(204);
    const after = await identity.http().get('/api/account/user-account/').set(auth(first));
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
    expect((await identity.http().post('/api/logout/').set(auth(first))).status).toBe(401);
    expect((await identity.http().get('/api/account/user-account/').set(auth(second))).status).toBe(200);
    expect((await identity.http().post('/api/logout/')).status).toBe(401);
    const [{ count }] = await identity.sql<{ count: number }>('SELECT count(*)::int AS count FROM identity.revoked_tokens');
    expect(count).toBe(1);
  });

  it('refuses tokens that are not signed by the service, and expired ones', async () => {
    const jwt = identity.app.get(JwtService);
    const forged = new JwtService({ secret: 'x'.repeat(40) }).sign({ sub: 'someone' });
    expect((await identity.http().get('/api/account/user-account/').set(auth(forged))).status).toBe(401);
    const [user] = await identity.sql<{ id: string; organisation_id: string }>("SELECT id, organisation_id FROM identity.users WHERE username = 'ada'");
    const expired = jwt.sign(
      { sub: user.id, username: 'ada', org: user.organisation_id, ct: 'STANDARD', perms: [], groups: [1, 2, 3], pv: 1 },
      { expiresIn: -10 },
    );
    const response = await identity.http().get('/api/account/user-account/').set(auth(expired));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
  });

  it('tells the gateway at internal/token-status whether a token is still current', async () => {
    const grace = await identity.founder('hedy', { email: 'hedy@example.org' });
    expect((await identity.http().get('/internal/token-status').set(auth(grace.token))).status).toBe(204);
    expect((await identity.http().get('/internal/token-status')).status).toBe(401);
    const changed = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(grace.token))
      .send({ old_password: PASSWORD, new_password: 'a brand new secret', new_password_confirm: 'a brand new secret' });
    expect(changed.status).toBe(200);
    const stale = await identity.http().get('/internal/token-status').set(auth(grace.token));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
    expect(
      (
        await identity
          .http()
          .get('/internal/token-status')
          .set(auth(await identity.login('hedy', 'a brand new secret')))
      ).status,
    ).toBe(204);
  });
});
