import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';

describeInfra("identity API: the caller's account, profile and password (real PostgreSQL)", true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let ada: Awaited<ReturnType<IdentityTestApp['founder']>>;
  const me = (token: string) => identity.http().get('/api/account/user-account/').set(auth(token));

  beforeAll(async () => {
    db = await createTestDatabase('identity_profile');
    identity = await IdentityTestApp.start(db.url);
    ada = await identity.founder('ada');
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('GET /api/account/user-account/ answers the caller with organisation details, client type and permissions', async () => {
    const response = await me(ada.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: ada.id,
      username: 'ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      organisation: ada.organisationId,
      organisation_details: { id: ada.organisationId, name: 'Ada Lovelace', email: 'ada@example.org', description: 'Analytical engines' },
      client_type: 'STANDARD',
      permissions: [
        'account.add_userprofile',
        'account.change_organisation',
        'account.change_userprofile',
        'account.delete_userprofile',
        'groups.manage_group',
        'policies.manage_policy',
        'records.change_record',
        'records.delete_record',
        'records.view_record',
        'requests.add_request',
        'requests.review_request',
      ],
      groups: [1, 2, 3],
      active: true,
      date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('lists the permissions of the groups held: a Data Viewer sub-account', async () => {
    const viewer = await identity.member(ada.token, 'viewer', { groups: [3] });
    const response = await me(viewer.token);
    expect(response.body).toMatchObject({ client_type: 'BASIC', groups: [3], permissions: ['records.view_record', 'requests.add_request'] });
  });

  it('needs a token for every call here', async () => {
    expect((await identity.http().get('/api/account/user-account/')).status).toBe(401);
    expect((await identity.http().put('/api/change-profile-information/').send({ first_name: 'A', last_name: 'B' })).status).toBe(401);
    const anonymous = await identity.http().put('/api/change-password/').send({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
  });

  it('PUT /api/change-profile-information/ changes the names and records user.updated', async () => {
    const response = await identity.http().put('/api/change-profile-information').set(auth(ada.token)).send({ first_name: ' Augusta ', last_name: 'King' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: ada.id, first_name: 'Augusta', last_name: 'King', username: 'ada' });
    expect((await me(ada.token)).body).toMatchObject({ first_name: 'Augusta', last_name: 'King' });
    const events = await identity.events(ada.id);
    expect(events[events.length - 1]).toEqual({
      type: 'user.updated',
      payload: expect.objectContaining({ userId: ada.id, firstName: 'Augusta', lastName: 'King', active: true }),
    });
  });

  it('answers missing names per field', async () => {
    const response = await identity.http().put('/api/change-profile-information/').set(auth(ada.token)).send({ first_name: '', last_name: '   ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ first_name: ['First Name is required'], last_name: ['Last Name is required'] });
  });

  it("PUT /api/change-password/ answers each field's problem", async () => {
    const put = (body: Record<string, unknown>) => identity.http().put('/api/change-password/').set(auth(ada.token)).send(body);
    expect((await put({})).body).toEqual({
      old_password: ['This field is required.'],
      new_password: ['This field is required.'],
      new_password_confirm: ['This field is required.'],
    });
    const short = await put({ old_password: PASSWORD, new_password: 'short', new_password_confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ new_password: ['This password is too short. It must contain at least 8 characters.'] });
    expect((await put({ old_password: PASSWORD, new_password: 'long enough 1', new_password_confirm: 'long enough 2' })).body).toEqual({
      new_password_confirm: ["Passwords don't match."],
    });
    const wrong = await put({ old_password: 'not my password', new_password: 'long enough 1', new_password_confirm: 'long enough 1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ old_password: ['Wrong password.'] });
  });

  it('changes the password: every earlier token stops working at once, the new password logs in', async () => {
    const second = await identity.login('ada');
    const response = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(ada.token))
      .send({ old_password: PASSWORD, new_password: 'a new passphrase', new_password_confirm: 'a new passphrase' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your password was changed. Please log in again with your new password.' });
    for (const token of [ada.token, second]) {
      const stale = await me(token);
      expect(stale.status).toBe(401);
      expect(stale.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
    }
    await expect(identity.login('ada', PASSWORD)).rejects.toThrow('400');
    ada.token = await identity.login('ada', 'a new passphrase');
    expect((await me(ada.token)).status).toBe(200);
    const [{ password_version }] = await identity.sql<{ password_version: number }>('SELECT password_version FROM identity.users WHERE id = $1', [ada.id]);
    expect(password_version).toBe(2);
  });

  it('refuses a common password, the username and the current password as the new one, with field errors', async () => {
    const member = await identity.member(ada.token, 'reuser', { groups: [3] });
    const put = (new_password: string) =>
      identity.http().put('/api/change-password/').set(auth(member.token)).send({ old_password: PASSWORD, new_password, new_password_confirm: new_password });
    expect((await put(PASSWORD)).body).toEqual({ new_password: ['The new password must be different from the current one.'] });
    expect((await put('password1')).body).toEqual({
      new_password: ['This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.'],
    });
    const same = await put('Reuser-2024');
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ new_password: ['The password is too similar to the username.'] });
  });

  it('counts wrong old passwords like failed logins (3 free, then 429 with Retry-After)', async () => {
    const viewer = await identity.member(ada.token, 'guessed', { groups: [3] });
    const put = () =>
      identity
        .http()
        .put('/api/change-password/')
        .set(auth(viewer.token))
        .send({ old_password: 'guess', new_password: 'long enough 1', new_password_confirm: 'long enough 1' });
    for (let i = 0; i < 3; i++) expect((await put()).status).toBe(400);
    const locked = await put();
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('1');
    expect(locked.body).toEqual({ detail: 'Too many failed login attempts. Please wait before trying again.' });
  });
});
