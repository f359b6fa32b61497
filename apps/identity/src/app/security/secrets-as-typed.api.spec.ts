import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD, PUBLIC_URL } from '../../testing/identity-test-app';
import { PasswordResetService } from '../password-reset/password-reset.service';

/** Spaces at either end are part of a password: every form takes it, and its confirmation, as typed. */
const PADDED = '  padded secret  ';

describeInfra('identity API: passwords are never trimmed (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const login = (username: string, password: string) =>
    identity.http().post('/api-token-auth/').set('X-Forwarded-For', identity.nextAddress()).send({ username, password });
  /** Only the password exactly as typed logs in; neither the trimmed form nor the previous one. */
  const expectOnlyLogin = async (username: string, password: string) => {
    expect((await login(username, password)).status).toBe(200);
    expect((await login(username, password.trim())).status).toBe(400);
  };

  beforeAll(async () => {
    db = await createTestDatabase('identity_secrets');
    identity = await IdentityTestApp.start(db.url);
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('POST /api/register/ compares the confirmation untrimmed and stores the password as typed', async () => {
    const mismatch = await identity.signUp('spaced', { password: PADDED, password_confirm: PADDED.trim() });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ password_confirm: ["Passwords don't match."] });
    await identity.founder('spaced', { password: PADDED, password_confirm: PADDED });
    await expectOnlyLogin('spaced', PADDED);
  });

  it('PUT /api/change-password/ takes old and new passwords as typed', async () => {
    const token = await identity.login('spaced', PADDED);
    const trimmedOld = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(token))
      .send({ old_password: PADDED.trim(), new_password: ' changed ', new_password_confirm: ' changed ' });
    expect(trimmedOld.status).toBe(400);
    expect(Object.keys(trimmedOld.body)).toEqual(['old_password']);
    const mismatch = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(token))
      .send({ old_password: PADDED, new_password: ' new padded one ', new_password_confirm: 'new padded one' });
    expect(mismatch.body).toEqual({ new_password_confirm: ["Passwords don't match."] });
    const changed = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(token))
      .send({ old_password: PADDED, new_password: ' new padded one ', new_password_confirm: ' new padded one ' });
    expect(changed.status).toBe(200);
    await expectOnlyLogin('spaced', ' new padded one ');
  });

  it('POST /api/password/check/ sets the reset password as typed', async () => {
    expect((await identity.http().post('/api/password/confirm/').send({ email: 'spaced@example.org' })).status).toBe(200);
    await identity.app.get(PasswordResetService).settled();
    const url = await eventually(async () => new URL(identity.linkIn('spaced@example.org', `${PUBLIC_URL}/#/passreset?`).replace('/#/', '/')));
    const body = { email: 'spaced@example.org', token: url.searchParams.get('token') };
    const mismatch = await identity
      .http()
      .post('/api/password/check/')
      .send({ ...body, password: ' reset padded ', password_confirm: 'reset padded' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ password_confirm: ["Passwords don't match."] });
    expect(
      (
        await identity
          .http()
          .post('/api/password/check/')
          .send({ ...body, password: ' reset padded ', password_confirm: ' reset padded ' })
      ).status,
    ).toBe(200);
    await expectOnlyLogin('spaced', ' reset padded ');
  });

  it("POST /api/account/ and set_password take a sub-account's password as typed", async () => {
    const admin = await identity.founder('admin');
    const create = (password_confirm: string) =>
      identity
        .http()
        .post('/api/account/')
        .set(auth(admin.token))
        .send({ username: 'sub', email: 'sub@example.org', first_name: 'Sub', last_name: 'Account', password: PADDED, password_confirm });
    expect((await create(PADDED.trim())).body).toEqual({ password_confirm: ["Passwords don't match."] });
    const created = await create(PADDED);
    expect(created.status).toBe(201);
    await expectOnlyLogin('sub', PADDED);

    const setPassword = (new_password_confirm: string) =>
      identity
        .http()
        .post(`/api/account/${created.body.id}/set_password/`)
        .set(auth(admin.token))
        .send({ new_password: '\tadmin chose this\t', new_password_confirm });
    expect((await setPassword('admin chose this')).body).toEqual({ new_password_confirm: ["Passwords don't match."] });
    expect((await setPassword('\tadmin chose this\t')).status).toBe(200);
    await expectOnlyLogin('sub', '\tadmin chose this\t');
    expect((await login('sub', PASSWORD)).status).toBe(400);
  });
});
