import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD, PUBLIC_URL } from '../../testing/identity-test-app';

describeInfra('identity API: activation link (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const follow = (link: string) => {
    const url = new URL(link);
    return identity.http().get(`${url.pathname}${url.search}`);
  };
  const logIn = (username: string) =>
    identity.http().post('/api-token-auth/').set('X-Forwarded-For', identity.nextAddress()).send({ username, password: PASSWORD });

  beforeAll(async () => {
    db = await createTestDatabase('identity_activation');
    identity = await IdentityTestApp.start(db.url);
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('activates the account and sends the browser to the login page with activated=1', async () => {
    await identity.signUp('ada');
    const response = await follow(identity.activationLink('ada@example.org'));
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/#/login?activated=1`);
    const [user] = await identity.sql<{ id: string; active: boolean; activated_at: Date | null }>(
      "SELECT id, active, activated_at FROM identity.users WHERE username = 'ada'",
    );
    expect(user.active).toBe(true);
    expect(user.activated_at).toBeInstanceOf(Date);
    const login = await logIn('ada');
    expect(login.status).toBe(200);
    const me = await identity.http().get('/api/account/user-account/').set(auth(login.body.token));
    expect(me.body.active).toBe(true);
  });

  it('records user.updated with active true', async () => {
    const [user] = await identity.sql<{ id: string; organisation_id: string }>("SELECT id, organisation_id FROM identity.users WHERE username = 'ada'");
    const events = await identity.events(user.id);
    expect(events.map((e) => e.type)).toEqual(['user.registered', 'user.updated']);
    expect(events[1].payload).toEqual({
      userId: user.id,
      username: 'ada',
      organisationId: user.organisation_id,
      clientType: 'STANDARD',
      active: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
      groups: [1, 2, 3],
    });
  });

  it('works once: a second visit says activated=0', async () => {
    const again = await follow(identity.activationLink('ada@example.org'));
    expect(again.status).toBe(302);
    expect(again.headers.location).toBe(`${PUBLIC_URL}/#/login?activated=0`);
  });

  it('expires: an old link says activated=0 and the account stays inactive', async () => {
    await identity.signUp('grace', { email: 'grace@example.org' });
    await identity.sql(
      "UPDATE identity.one_time_tokens SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM identity.users WHERE username = 'grace')",
    );
    const response = await follow(identity.activationLink('grace@example.org'));
    expect(response.headers.location).toBe(`${PUBLIC_URL}/#/login?activated=0`);
    const [user] = await identity.sql<{ active: boolean }>("SELECT active FROM identity.users WHERE username = 'grace'");
    expect(user.active).toBe(false);
    expect((await logIn('grace')).status).toBe(400);
  });

  it('answers unknown, empty and missing tokens with activated=0', async () => {
    for (const path of ['/api/register/activate/?token=nonsense', '/api/register/activate?token=', '/api/register/activate/']) {
      const response = await identity.http().get(path);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(`${PUBLIC_URL}/#/login?activated=0`);
    }
  });
});
