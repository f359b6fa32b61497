import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, Caller, IdentityTestApp, PASSWORD, Roles } from '../../testing/identity-test-app';

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const OWN_GROUPS = { change_group: ['You cannot change your own group membership.'] };

describeInfra('identity API: /api/account/ sub-accounts (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let roles: Roles;
  let counter = 0;
  const newAccount = (fields: Record<string, unknown> = {}) => {
    counter += 1;
    return { username: `sub${counter}`, email: `sub${counter}@example.org`, first_name: 'Sub', last_name: `Account ${counter}`, password: PASSWORD, ...fields };
  };
  const create = (caller: Caller, fields: Record<string, unknown> = {}) =>
    identity.http().post('/api/account/').set(auth(caller.token)).send(newAccount(fields));
  const me = (token: string) => identity.http().get('/api/account/user-account/').set(auth(token));

  beforeAll(async () => {
    db = await createTestDatabase('identity_accounts');
    identity = await IdentityTestApp.start(db.url);
    roles = await identity.roles('acme');
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  describe('list and read', () => {
    it("GET /api/account/ lists the organisation's accounts to every member, paged", async () => {
      for (const caller of [roles.founder, roles.dataViewer, roles.basic]) {
        const response = await identity.http().get('/api/account/').set(auth(caller.token));
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ count: 5, next: null, previous: null });
        expect(response.body.results.map((a: { username: string }) => a.username)).toEqual([
          'acme-founder',
          'acme-access-admin',
          'acme-data-admin',
          'acme-data-viewer',
          'acme-basic',
        ]);
      }
      const page = await identity.http().get('/api/account/?page=2&page_size=2').set(auth(roles.founder.token));
      expect(page.body).toMatchObject({ count: 5, next: '/api/account/?page=3&page_size=2', previous: '/api/account/?page=1&page_size=2' });
      expect(page.body.results.map((a: { username: string }) => a.username)).toEqual(['acme-data-admin', 'acme-data-viewer']);
      expect((await identity.http().get('/api/account/?page=9').set(auth(roles.founder.token))).status).toBe(404);
      expect((await identity.http().get('/api/account/?page=0').set(auth(roles.founder.token))).body).toEqual({ page: ['Invalid page.'] });
    });

    it('answers a huge page as any page past the end (404 Invalid page.), never a 500', async () => {
      for (const query of ['page=99999999999999999999999', `page=${'9'.repeat(400)}`, 'page=1000001', 'page=99999999999999999999999&page_size=500']) {
        const response = await identity.http().get(`/api/account/?${query}`).set(auth(roles.founder.token));
        expect([query, response.status, response.body]).toEqual([query, 404, { detail: 'Invalid page.' }]);
      }
    });

    it('answers each account with the account fields', async () => {
      const response = await identity.http().get(`/api/account/${roles.basic.id}/`).set(auth(roles.dataViewer.token));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: roles.basic.id,
        username: 'acme-basic',
        first_name: 'Sub',
        last_name: 'acme-basic',
        email: 'acme-basic@example.org',
        client_type: 'BASIC',
        active: true,
        groups: [3],
        date_joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        organisation: roles.founder.organisationId,
      });
    });

    it("never shows another organisation's accounts (404), and anonymous callers nothing (401)", async () => {
      const list = await identity.http().get('/api/account/').set(auth(roles.otherAdmin.token));
      expect(list.body.results.map((a: { id: string }) => a.id)).toEqual([roles.otherAdmin.id]);
      const other = await identity.http().get(`/api/account/${roles.basic.id}/`).set(auth(roles.otherAdmin.token));
      expect(other.status).toBe(404);
      expect(other.body).toEqual(NOT_FOUND);
      expect((await identity.http().get('/api/account/not-a-uuid/').set(auth(roles.founder.token))).status).toBe(404);
      expect((await identity.http().get('/api/account/')).status).toBe(401);
      expect((await identity.http().get(`/api/account/${roles.basic.id}/`)).status).toBe(401);
    });
  });

  describe('create', () => {
    it('needs account.add_userprofile', async () => {
      for (const caller of [roles.dataAdmin, roles.dataViewer, roles.basic]) {
        const response = await create(caller);
        expect(response.status).toBe(403);
        expect(response.body).toEqual(FORBIDDEN);
      }
      expect((await identity.http().post('/api/account/').send(newAccount())).status).toBe(401);
    });

    it("makes an active BASIC account without groups by default, in the caller's organisation, that can log in", async () => {
      const response = await create(roles.accessAdmin, { username: 'newbie', email: 'newbie@example.org' });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ username: 'newbie', client_type: 'BASIC', active: true, groups: [], organisation: roles.founder.organisationId });
      const token = await identity.login('newbie');
      expect((await me(token)).body).toMatchObject({ permissions: [], client_type: 'BASIC' });
      expect((await identity.events(response.body.id)).map((e) => [e.type, e.payload.active])).toEqual([
        ['user.registered', undefined],
        ['user.updated', true],
      ]);
      const [{ password_hash }] = await identity.sql<{ password_hash: string }>('SELECT password_hash FROM identity.users WHERE id = $1', [response.body.id]);
      expect(password_hash).toMatch(/^\$argon2id\$/);
    });

    it('takes groups (numbers or digit strings), client type and active', async () => {
      const response = await create(roles.founder, { groups: ['3', 2, 2], client_type: 'STANDARD', active: false });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ groups: [2, 3], client_type: 'STANDARD', active: false });
    });

    it('lets a BASIC Access Admin make BASIC accounts only', async () => {
      const basicAdmin = await identity.member(roles.founder.token, 'basic-admin', { groups: [1] });
      expect((await create(basicAdmin, { client_type: 'STANDARD' })).body).toEqual({
        client_type: ['You cannot give an account a higher client type than your own.'],
      });
      expect((await create(basicAdmin)).status).toBe(201);
    });

    it('answers each invalid field', async () => {
      const empty = await identity.http().post('/api/account/').set(auth(roles.founder.token)).send({});
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        username: ['This field is required.'],
        email: ['This field is required.'],
        first_name: ['First Name is required'],
        last_name: ['Last Name is required'],
        password: ['This field is required.'],
      });
      const invalid = await create(roles.founder, {
        username: 'no spaces',
        email: 'nope',
        password: 'short',
        password_confirm: 'other',
        groups: [4],
        client_type: 'GOLD',
        active: 'yes',
      });
      expect(invalid.body).toEqual({
        username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'],
        email: ['Enter a valid email address.'],
        password: ['This password is too short. It must contain at least 8 characters.'],
        password_confirm: ["Passwords don't match."],
        groups: ['A group must be 1 (Access Admin), 2 (Data Admin) or 3 (Data Viewer).'],
        client_type: ['Choose STANDARD or BASIC.'],
        active: ['Must be true or false.'],
      });
      const taken = await create(roles.founder, { username: 'ACME-BASIC', email: 'acme-founder@EXAMPLE.org' });
      expect(taken.body).toEqual({ username: ['A user with that username already exists.'], email: ['A user with that email already exists.'] });
    });
  });

  describe('edit', () => {
    let target: Caller;
    beforeAll(async () => {
      target = await identity.member(roles.founder.token, 'target', { groups: [3] });
    });
    const put = (caller: Caller, id: string, body: Record<string, unknown>) => identity.http().put(`/api/account/${id}/`).set(auth(caller.token)).send(body);

    it('needs account.change_userprofile', async () => {
      for (const caller of [roles.dataAdmin, roles.dataViewer, roles.basic]) {
        const response = await put(caller, target.id, { first_name: 'X' });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(FORBIDDEN);
      }
      expect((await put(roles.otherAdmin, target.id, { first_name: 'X' })).status).toBe(404);
      expect((await identity.http().put(`/api/account/${target.id}/`).send({ first_name: 'X' })).status).toBe(401);
    });

    it('PUT changes the fields sent and records user.updated', async () => {
      const response = await put(roles.accessAdmin, target.id, {
        first_name: 'Tim',
        last_name: 'Berners-Lee',
        email: 'tim@example.org',
        id: 'ignored',
        organisation: roles.otherAdmin.organisationId,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: target.id,
        first_name: 'Tim',
        last_name: 'Berners-Lee',
        email: 'tim@example.org',
        groups: [3],
        organisation: roles.founder.organisationId,
      });
      const events = await identity.events(target.id);
      expect(events[events.length - 1]).toEqual({
        type: 'user.updated',
        payload: expect.objectContaining({ firstName: 'Tim', email: 'tim@example.org', active: true }),
      });
    });

    it("PATCH changes groups; the account's older tokens stop working, a new login carries the new permissions", async () => {
      const response = await identity
        .http()
        .patch(`/api/account/${target.id}`)
        .set(auth(roles.founder.token))
        .send({ groups: [2, 3] });
      expect(response.status).toBe(200);
      expect(response.body.groups).toEqual([2, 3]);
      expect((await me(target.token)).status).toBe(401);
      target.token = await identity.login(target.username);
      expect((await me(target.token)).body.permissions).toEqual(expect.arrayContaining(['records.change_record', 'records.view_record']));
      const events = await identity.events(target.id);
      expect(events[events.length - 1].payload).toMatchObject({ groups: [2, 3] });
    });

    it('lets nobody change their own groups, even an Access Admin; sending them unchanged is fine', async () => {
      const own = await identity
        .http()
        .patch(`/api/account/${roles.accessAdmin.id}/`)
        .set(auth(roles.accessAdmin.token))
        .send({ groups: [1, 2] });
      expect(own.status).toBe(400);
      expect(own.body).toEqual(OWN_GROUPS);
      const founder = await put(roles.founder, roles.founder.id, { groups: [1] });
      expect(founder.body).toEqual(OWN_GROUPS);
      const same = await put(roles.founder, roles.founder.id, { groups: [3, 2, 1], first_name: 'Ada' });
      expect(same.status).toBe(200);
    });

    it('lets nobody deactivate themselves', async () => {
      expect((await put(roles.founder, roles.founder.id, { active: false })).body).toEqual({ active: ['You cannot deactivate your own account.'] });
    });

    it("refuses a taken username or email, but not the account's own in another case", async () => {
      expect((await put(roles.founder, target.id, { username: 'acme-basic', email: 'acme-basic@example.org' })).body).toEqual({
        username: ['A user with that username already exists.'],
        email: ['A user with that email already exists.'],
      });
      expect((await put(roles.founder, target.id, { email: 'TIM@example.org' })).status).toBe(200);
    });

    it('answers invalid fields per field', async () => {
      const response = await put(roles.founder, target.id, { first_name: '', email: 'x', groups: 'all', client_type: 'GOLD' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        first_name: ['First Name is required'],
        email: ['Enter a valid email address.'],
        groups: ['Expected a list of group ids.'],
        client_type: ['Choose STANDARD or BASIC.'],
      });
    });

    it('deactivating an account ends its sessions and its logins', async () => {
      const response = await put(roles.founder, target.id, { active: false });
      expect(response.body.active).toBe(false);
      expect((await me(target.token)).status).toBe(401);
      await expect(identity.login(target.username)).rejects.toThrow('400');
      expect((await put(roles.founder, target.id, { active: true })).body.active).toBe(true);
      target.token = await identity.login(target.username);
    });

    it('a BASIC Access Admin cannot raise an account to STANDARD', async () => {
      const basicAdmin = await identity.member(roles.founder.token, 'basic-admin-2', { groups: [1] });
      const basicMember = await identity.member(roles.founder.token, 'basic-member', { groups: [3] });
      expect((await put(basicAdmin, basicMember.id, { client_type: 'STANDARD' })).body).toEqual({
        client_type: ['You cannot give an account a higher client type than your own.'],
      });
      expect((await put(roles.founder, basicMember.id, { client_type: 'STANDARD' })).body.client_type).toBe('STANDARD');
    });
  });

  describe('set_password', () => {
    let target: Caller;
    beforeAll(async () => {
      target = await identity.member(roles.founder.token, 'forgetful', { groups: [3] });
    });
    const setPassword = (caller: Caller, id: string, body: Record<string, unknown>) =>
      identity.http().post(`/api/account/${id}/set_password/`).set(auth(caller.token)).send(body);
    const body = { new_password: 'admin chose this', new_password_confirm: 'admin chose this' };

    it('needs account.change_userprofile and the same organisation', async () => {
      for (const caller of [roles.dataAdmin, roles.dataViewer, roles.basic]) expect((await setPassword(caller, target.id, body)).status).toBe(403);
      expect((await setPassword(roles.otherAdmin, target.id, body)).status).toBe(404);
      expect((await identity.http().post(`/api/account/${target.id}/set_password/`).send(body)).status).toBe(401);
    });

    it('validates the new password and its confirmation', async () => {
      expect((await setPassword(roles.founder, target.id, {})).body).toEqual({
        new_password: ['This field is required.'],
        new_password_confirm: ['This field is required.'],
      });
      expect((await setPassword(roles.founder, target.id, { new_password: 'short', new_password_confirm: 'short' })).body).toEqual({
        new_password: ['This password is too short. It must contain at least 8 characters.'],
      });
      expect((await setPassword(roles.founder, target.id, { new_password: 'long enough 1', new_password_confirm: 'long enough 2' })).body).toEqual({
        new_password_confirm: ["Passwords don't match."],
      });
    });

    it("sets the password: the account's earlier tokens stop working, the new password logs in", async () => {
      const response = await setPassword(roles.accessAdmin, target.id, body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'The password was set.' });
      expect((await me(target.token)).status).toBe(401);
      await expect(identity.login(target.username)).rejects.toThrow('400');
      expect(await identity.login(target.username, 'admin chose this')).toEqual(expect.any(String));
    });

    it("is not for one's own password (that needs the old one)", async () => {
      const response = await setPassword(roles.founder, roles.founder.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'Use Change Password in your profile to change your own password.' });
    });
  });

  describe('delete', () => {
    it('needs account.delete_userprofile and the same organisation', async () => {
      const target = await identity.member(roles.founder.token, 'keep-me', { groups: [3] });
      for (const caller of [roles.dataAdmin, roles.dataViewer, roles.basic]) {
        const response = await identity.http().delete(`/api/account/${target.id}/`).set(auth(caller.token));
        expect(response.status).toBe(403);
        expect(response.body).toEqual(FORBIDDEN);
      }
      expect((await identity.http().delete(`/api/account/${target.id}/`).set(auth(roles.otherAdmin.token))).status).toBe(404);
      expect((await identity.http().delete(`/api/account/${target.id}/`)).status).toBe(401);
      expect((await identity.http().get(`/api/account/${target.id}/`).set(auth(roles.founder.token))).status).toBe(200);
    });

    it('deletes the account: its tokens and logins stop working, user.updated says deleted', async () => {
      const target = await identity.member(roles.founder.token, 'leaving', { groups: [3] });
      const response = await identity.http().delete(`/api/account/${target.id}`).set(auth(roles.accessAdmin.token));
      expect(response.status).toBe(204);
      expect((await identity.http().get(`/api/account/${target.id}/`).set(auth(roles.founder.token))).status).toBe(404);
      expect((await me(target.token)).status).toBe(401);
      await expect(identity.login('leaving')).rejects.toThrow('400');
      const events = await identity.events(target.id);
      expect(events[events.length - 1]).toEqual({
        type: 'user.updated',
        payload: expect.objectContaining({ userId: target.id, active: false, deleted: true }),
      });
    });

    it('lets nobody delete themselves', async () => {
      const response = await identity.http().delete(`/api/account/${roles.founder.id}/`).set(auth(roles.founder.token));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'You cannot delete your own account.' });
    });
  });
});
