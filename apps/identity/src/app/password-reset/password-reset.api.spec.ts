import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD, PUBLIC_URL } from '../../testing/identity-test-app';
import { hashToken } from '../security/one-time-token';
import { PasswordResetService } from './password-reset.service';

const REQUESTED = { message: 'If an account exists for this email address, we have sent it a link to reset the password. The link expires in 1 hour.' };
const INVALID_LINK = { non_field_errors: ['This password reset link is invalid or has expired. Please ask for a new one.'] };
const NEW_PASSWORD = 'a brand new passphrase';

describeInfra('identity API: password reset (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  const settled = () => identity.app.get(PasswordResetService).settled();
  const requestReset = (email: string) => identity.http().post('/api/password/confirm/').send({ email });
  const check = (body: Record<string, unknown>) => identity.http().post('/api/password/check/').send(body);
  const login = (username: string, password: string) =>
    identity.http().post('/api-token-auth/').set('X-Forwarded-For', identity.nextAddress()).send({ username, password });
  /** Waits for the reset mail (it is written after the answer) and reads token and email from its link. */
  const resetLink = async (email: string, count = 1) =>
    eventually(async () => {
      const mails = identity.mailsTo(email).filter((mail) => mail.subject === 'Reset your Data Catalogue password');
      expect(mails).toHaveLength(count);
      const url = new URL(identity.linkIn(email, `${PUBLIC_URL}/#/passreset?`).replace('/#/', '/'));
      return { token: url.searchParams.get('token')!, email: url.searchParams.get('email')!, href: identity.linkIn(email, `${PUBLIC_URL}/#/passreset?`) };
    });

  beforeAll(async () => {
    db = await createTestDatabase('identity_reset');
    identity = await IdentityTestApp.start(db.url);
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('answers the same whether or not the email belongs to an account, and mails only the account', async () => {
    const ada = await identity.founder('ada');
    const known = await requestReset('ADA@example.org');
    const unknown = await requestReset('nobody@example.org');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(REQUESTED);
    expect(unknown.body).toEqual(REQUESTED);
    await settled();
    const link = await resetLink('ada@example.org');
    expect(link.href).toBe(`${PUBLIC_URL}/#/passreset?token=${encodeURIComponent(link.token)}&email=ada%40example.org`);
    expect(link.email).toBe('ada@example.org');
    expect(identity.mailsTo('nobody@example.org')).toEqual([]);
    const stored = await identity.sql<{ token_hash: string; lifetime: number }>(
      "SELECT token_hash, extract(epoch FROM expires_at - created_at)::int AS lifetime FROM identity.one_time_tokens WHERE purpose = 'password_reset' AND user_id = $1",
      [ada.id],
    );
    expect(stored).toEqual([{ token_hash: hashToken(link.token), lifetime: expect.any(Number) }]);
    expect(Math.abs(stored[0].lifetime - 3600)).toBeLessThan(60);
  });

  it('sets the new password with the token: the old password and earlier tokens stop working', async () => {
    const token = await identity.login('ada');
    const link = await resetLink('ada@example.org');
    const response = await check({ email: link.email, token: link.token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your password has been reset. You can now log in with your new password.', status: 'success' });
    expect((await login('ada', PASSWORD)).status).toBe(400);
    expect((await login('ada', NEW_PASSWORD)).status).toBe(200);
    expect((await identity.http().get('/api/account/user-account/').set(auth(token))).status).toBe(401);
    const [user] = await identity.sql<{ id: string; password_version: number }>("SELECT id, password_version FROM identity.users WHERE username = 'ada'");
    expect(user.password_version).toBe(2);
    expect((await identity.events(user.id)).map((e) => e.type)).toEqual(['user.registered', 'user.updated', 'user.updated']);
  });

  it('works once', async () => {
    const link = await resetLink('ada@example.org');
    const again = await check({ email: link.email, token: link.token, password: 'yet another password', password_confirm: 'yet another password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_LINK);
  });

  it("refuses an unknown token, another account's email and an expired token", async () => {
    await identity.founder('grace', { email: 'grace@example.org' });
    await requestReset('grace@example.org');
    const link = await resetLink('grace@example.org');
    const body = { password: NEW_PASSWORD, password_confirm: NEW_PASSWORD };
    expect((await check({ ...body, email: 'grace@example.org', token: 'made-up' })).body).toEqual(INVALID_LINK);
    expect((await check({ ...body, email: 'ada@example.org', token: link.token })).body).toEqual(INVALID_LINK);
    await identity.sql("UPDATE identity.one_time_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'password_reset'");
    const expired = await check({ ...body, email: 'grace@example.org', token: link.token });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(INVALID_LINK);
    expect((await login('grace', PASSWORD)).status).toBe(200);
  });

  it('makes an earlier link unusable when a new one is asked for', async () => {
    await requestReset('grace@example.org');
    const first = await resetLink('grace@example.org', 2);
    await requestReset('grace@example.org');
    const second = await resetLink('grace@example.org', 3);
    expect(second.token).not.toBe(first.token);
    const body = { email: 'grace@example.org', password: NEW_PASSWORD, password_confirm: NEW_PASSWORD };
    expect((await check({ ...body, token: first.token })).body).toEqual(INVALID_LINK);
    expect((await check({ ...body, token: second.token })).status).toBe(200);
  });

  it('refuses a common password or one like the username, and keeps the link usable', async () => {
    await identity.founder('hopper', { email: 'hopper@example.org' });
    await requestReset('hopper@example.org');
    const link = await resetLink('hopper@example.org');
    const refused = await check({ email: link.email, token: link.token, password: 'qwertyuiop', password_confirm: 'qwertyuiop' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ password: ['This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.'] });
    expect((await check({ email: link.email, token: link.token, password: 'admiral-hopper', password_confirm: 'admiral-hopper' })).body).toEqual({
      password: ['The password is too similar to the username.'],
    });
    expect((await check({ email: link.email, token: link.token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD })).status).toBe(200);
  });

  it('activates an account that never followed its activation link (the reset link proves the email)', async () => {
    await identity.signUp('linus', { email: 'linus@example.org' });
    await requestReset('linus@example.org');
    const link = await resetLink('linus@example.org');
    expect((await check({ email: link.email, token: link.token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD })).status).toBe(200);
    expect((await login('linus', NEW_PASSWORD)).status).toBe(200);
  });

  it('sends nothing to an account an admin deactivated', async () => {
    const admin = await identity.founder('barbara', { email: 'barbara@example.org' });
    const member = await identity.member(admin.token, 'ken');
    await identity.http().patch(`/api/account/${member.id}/`).set(auth(admin.token)).send({ active: false });
    expect((await requestReset('ken@example.org')).body).toEqual(REQUESTED);
    await settled();
    expect(identity.mailsTo('ken@example.org')).toEqual([]);
  });

  it('sends at most 5 reset mails per account and hour', async () => {
    await identity.founder('alan', { email: 'alan@example.org' });
    for (let i = 0; i < 7; i++) expect((await requestReset('alan@example.org')).body).toEqual(REQUESTED);
    await settled();
    expect(identity.mailsTo('alan@example.org').filter((m) => m.subject.startsWith('Reset'))).toHaveLength(5);
  });

  it('validates both forms with per-field messages', async () => {
    expect((await identity.http().post('/api/password/confirm/').send({})).body).toEqual({ email: ['This field is required.'] });
    expect((await requestReset('nope')).body).toEqual({ email: ['Enter a valid email address.'] });
    const empty = await check({});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      email: ['This field is required.'],
      token: ['This field is required.'],
      password: ['This field is required.'],
      password_confirm: ['This field is required.'],
    });
    const weak = await check({ email: 'ada@example.org', token: 't', password: 'short', password_confirm: 'other' });
    expect(weak.body).toEqual({
      password: ['This password is too short. It must contain at least 8 characters.'],
      password_confirm: ["Passwords don't match."],
    });
  });
});
