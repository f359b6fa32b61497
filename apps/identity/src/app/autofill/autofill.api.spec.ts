import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp } from '../../testing/identity-test-app';

describeInfra('identity API: autofill lists for the custom-visibility picker (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let ada: Awaited<ReturnType<IdentityTestApp['founder']>>;
  let grace: Awaited<ReturnType<IdentityTestApp['founder']>>;
  let charles: { id: string };

  beforeAll(async () => {
    db = await createTestDatabase('identity_autofill');
    identity = await IdentityTestApp.start(db.url);
    ada = await identity.founder('ada');
    grace = await identity.founder('grace', { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.org' });
    charles = await identity.member(ada.token, 'charles', { groups: [3] });
    // Never activated: neither the person nor their organisation is offered.
    await identity.signUp('ghost', { first_name: 'Ghost', last_name: 'Writer', email: 'ghost@example.org' });
    await identity.http().put(`/api/organisation/${grace.organisationId}/`).set(auth(grace.token)).send({ name: 'Navy Computing Lab' });
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('lists active users as "First Last (username)"', async () => {
    const response = await identity.http().get('/api/userprofile-autofill-list').set(auth(grace.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: ada.id, name: 'Ada Lovelace (ada)' },
      { id: grace.id, name: 'Grace Hopper (grace)' },
      { id: charles.id, name: 'Sub charles (charles)' },
    ]);
  });

  it('lists organisations that have an active member', async () => {
    const response = await identity.http().get('/api/organisation-autofill-list/').set(auth(ada.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: ada.organisationId, name: 'Ada Lovelace' },
      { id: grace.organisationId, name: 'Navy Computing Lab' },
    ]);
  });

  it('filters by lowercase substring with q', async () => {
    expect((await identity.http().get('/api/userprofile-autofill-list/?q=HOP').set(auth(ada.token))).body).toEqual([{ id: grace.id, name: 'Grace Hopper (grace)' }]);
    expect((await identity.http().get('/api/userprofile-autofill-list/?q=(char').set(auth(ada.token))).body).toEqual([{ id: charles.id, name: 'Sub charles (charles)' }]);
    expect((await identity.http().get('/api/organisation-autofill-list?q=navy').set(auth(ada.token))).body).toEqual([{ id: grace.organisationId, name: 'Navy Computing Lab' }]);
    expect((await identity.http().get('/api/organisation-autofill-list?q=%25').set(auth(ada.token))).body).toEqual([]);
  });

  it('needs a signed-in caller', async () => {
    expect((await identity.http().get('/api/userprofile-autofill-list')).status).toBe(401);
    expect((await identity.http().get('/api/organisation-autofill-list')).status).toBe(401);
  });
});
