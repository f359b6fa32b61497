import { bidiControlMessage } from '@dc/contracts';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp } from '../../testing/identity-test-app';

/** An invisible right-to-left override: "Lab\u202Etxt.exe" shows as "Labexe.txt". */
const RLO = '\u202e';
const REFUSED = [bidiControlMessage(RLO)];

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
    expect((await identity.http().get('/api/userprofile-autofill-list/?q=HOP').set(auth(ada.token))).body).toEqual([
      { id: grace.id, name: 'Grace Hopper (grace)' },
    ]);
    expect((await identity.http().get('/api/userprofile-autofill-list/?q=(char').set(auth(ada.token))).body).toEqual([
      { id: charles.id, name: 'Sub charles (charles)' },
    ]);
    expect((await identity.http().get('/api/organisation-autofill-list?q=navy').set(auth(ada.token))).body).toEqual([
      { id: grace.organisationId, name: 'Navy Computing Lab' },
    ]);
    expect((await identity.http().get('/api/organisation-autofill-list?q=%25').set(auth(ada.token))).body).toEqual([]);
  });

  it('refuses bidi controls in every name a person gives: sign-up, profile, sub-accounts, organisation', async () => {
    const signUp = await identity.signUp(`eve${RLO}`, { email: 'eve@example.org', first_name: `Eve${RLO}`, last_name: `Mallory${RLO}` });
    expect([signUp.status, signUp.body]).toEqual([400, { username: REFUSED, first_name: REFUSED, last_name: REFUSED }]);
    // Each of the other controls, one at a time.
    for (const control of ['\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c']) {
      const response = await identity.signUp('eve', { email: 'eve@example.org', first_name: `E${control}ve` });
      expect([control, response.status, response.body]).toEqual([control, 400, { first_name: [bidiControlMessage(control)] }]);
    }
    expect(await identity.sql("SELECT 1 FROM identity.users WHERE email = 'eve@example.org'")).toEqual([]);

    const profile = await identity
      .http()
      .put('/api/change-profile-information/')
      .set(auth(ada.token))
      .send({ first_name: 'Ada', last_name: `Love${RLO}lace` });
    expect([profile.status, profile.body]).toEqual([400, { last_name: REFUSED }]);
    const created = await identity
      .http()
      .post('/api/account/')
      .set(auth(ada.token))
      .send({ username: 'sub-eve', email: 'sub-eve@example.org', first_name: `Sub${RLO}`, last_name: 'Eve', password: 'correct horse battery' });
    expect([created.status, created.body]).toEqual([400, { first_name: REFUSED }]);
    const renamed = await identity
      .http()
      .patch(`/api/account/${charles.id}/`)
      .set(auth(ada.token))
      .send({ last_name: `${RLO}charles` });
    expect([renamed.status, renamed.body]).toEqual([400, { last_name: REFUSED }]);
    const organisation = await identity
      .http()
      .put(`/api/organisation/${grace.organisationId}/`)
      .set(auth(grace.token))
      .send({ name: `Navy${RLO}baL` });
    expect([organisation.status, organisation.body]).toEqual([400, { name: REFUSED }]);
    // Names in every other script stay welcome.
    const arabic = await identity.http().put(`/api/organisation/${grace.organisationId}/`).set(auth(grace.token)).send({ name: 'مختبر الحوسبة' });
    expect(arabic.status).toBe(200);
    await identity.http().put(`/api/organisation/${grace.organisationId}/`).set(auth(grace.token)).send({ name: 'Navy Computing Lab' }).expect(200);
  });

  it('shows names stored before they were refused without their bidi controls', async () => {
    await identity.sql(`UPDATE identity.users SET last_name = 'Hop${RLO}per' WHERE id = $1`, [grace.id]);
    await identity.sql(`UPDATE identity.organisations SET name = 'Navy${RLO}baL' WHERE id = $1`, [grace.organisationId]);
    try {
      expect((await identity.http().get('/api/userprofile-autofill-list/?q=grace').set(auth(ada.token))).body).toEqual([
        { id: grace.id, name: 'Grace Hopper (grace)' },
      ]);
      expect((await identity.http().get('/api/organisation-autofill-list/?q=navy').set(auth(ada.token))).body).toEqual([
        { id: grace.organisationId, name: 'NavybaL' },
      ]);
    } finally {
      await identity.sql(`UPDATE identity.users SET last_name = 'Hopper' WHERE id = $1`, [grace.id]);
      await identity.sql(`UPDATE identity.organisations SET name = 'Navy Computing Lab' WHERE id = $1`, [grace.organisationId]);
    }
  });

  it('needs a signed-in caller', async () => {
    expect((await identity.http().get('/api/userprofile-autofill-list')).status).toBe(401);
    expect((await identity.http().get('/api/organisation-autofill-list')).status).toBe(401);
  });
});
