import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, Roles } from '../../testing/identity-test-app';

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };

describeInfra('identity API: /api/organisation/{id}/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let roles: Roles;
  const path = () => `/api/organisation/${roles.founder.organisationId}/`;
  const edit = { name: 'Difference Engines Ltd', email: 'office@engines.example', description: 'Engines and tables' };

  beforeAll(async () => {
    db = await createTestDatabase('identity_organisation');
    identity = await IdentityTestApp.start(db.url);
    roles = await identity.roles('org');
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('shows every member the organisation with its member ids', async () => {
    const members = [roles.founder, roles.accessAdmin, roles.dataAdmin, roles.dataViewer, roles.basic].map((m) => m.id);
    for (const caller of [roles.founder, roles.accessAdmin, roles.dataAdmin, roles.dataViewer, roles.basic]) {
      const response = await identity.http().get(path()).set(auth(caller.token));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: roles.founder.organisationId,
        name: 'Ada Lovelace',
        email: 'org-founder@example.org',
        description: 'Analytical engines',
        userprofile_set: members,
      });
    }
  });

  it('hides it from another organisation (404), from anonymous callers (401), and answers unknown ids 404', async () => {
    const other = await identity.http().get(path()).set(auth(roles.otherAdmin.token));
    expect(other.status).toBe(404);
    expect(other.body).toEqual(NOT_FOUND);
    expect((await identity.http().get(path())).status).toBe(401);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const response = await identity.http().get(`/api/organisation/${id}/`).set(auth(roles.founder.token));
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });

  it('lets only holders of account.change_organisation edit it (Access Admins)', async () => {
    for (const caller of [roles.dataAdmin, roles.dataViewer, roles.basic]) {
      const response = await identity.http().put(path()).set(auth(caller.token)).send(edit);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(FORBIDDEN);
    }
    const elsewhere = await identity.http().put(path()).set(auth(roles.otherAdmin.token)).send(edit);
    expect(elsewhere.status).toBe(404);
    expect((await identity.http().put(path()).send(edit)).status).toBe(401);
    const response = await identity.http().put(path()).set(auth(roles.accessAdmin.token)).send(edit);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: roles.founder.organisationId, ...edit });
    expect(response.body.userprofile_set).toHaveLength(5);
  });

  it('records organisation.updated with the new state', async () => {
    const events = await identity.events(roles.founder.organisationId);
    expect(events[events.length - 1]).toEqual({ type: 'organisation.updated', payload: { organisationId: roles.founder.organisationId, ...edit } });
  });

  it('keeps email and description when left out, and accepts a blank email', async () => {
    const renamed = await identity.http().put(path()).set(auth(roles.founder.token)).send({ name: 'Engines' });
    expect(renamed.body).toMatchObject({ name: 'Engines', email: edit.email, description: edit.description });
    const cleared = await identity.http().put(path()).set(auth(roles.founder.token)).send({ name: 'Engines', email: '', description: '' });
    expect(cleared.body).toMatchObject({ name: 'Engines', email: '', description: '' });
  });

  it('answers invalid fields per field', async () => {
    const response = await identity.http().put(path()).set(auth(roles.founder.token)).send({ name: ' ', email: 'nope', description: 42 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ name: ['This field is required.'], email: ['Enter a valid email address.'], description: ['Not a valid string.'] });
  });
});
