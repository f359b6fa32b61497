import * as argon2 from 'argon2';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD, PUBLIC_URL } from '../../testing/identity-test-app';
import { hashToken } from '../security/one-time-token';

describeInfra('identity API: POST /api/register/ (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('identity_register');
    identity = await IdentityTestApp.start(db.url);
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('creates an inactive STANDARD founder of a new organisation and says an email was sent', async () => {
    const response = await identity.signUp('ada');
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ message: 'An email was sent to your account. Please confirm your account.', username: 'ada', email: 'ada@example.org' });
    const [user] = await identity.sql<{ active: boolean; client_type: string; groups: number[]; organisation_id: string; activated_at: Date | null }>(
      "SELECT * FROM identity.users WHERE username = 'ada'",
    );
    expect(user).toMatchObject({ active: false, client_type: 'STANDARD', groups: [1, 2, 3], activated_at: null });
    const [organisation] = await identity.sql('SELECT name, email, description FROM identity.organisations WHERE id = $1', [user.organisation_id]);
    expect(organisation).toEqual({ name: 'Ada Lovelace', email: 'ada@example.org', description: 'Analytical engines' });
  });

  it('stores an argon2id hash, never the password', async () => {
    const [{ password_hash }] = await identity.sql<{ password_hash: string }>("SELECT password_hash FROM identity.users WHERE username = 'ada'");
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(password_hash).not.toContain(PASSWORD);
    expect(await argon2.verify(password_hash, PASSWORD)).toBe(true);
  });

  it('mails an activation link under PUBLIC_URL and keeps only the hash of its token, valid for 3 days', async () => {
    const [mail] = identity.mailsTo('ada@example.org');
    expect(mail.subject).toBe('Activate your Data Catalogue account');
    expect(mail.text).toContain('Hello Ada,');
    const link = new URL(identity.activationLink('ada@example.org'));
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/api/register/activate/`);
    const token = link.searchParams.get('token')!;
    const rows = await identity.sql<{ token_hash: string; purpose: string; lifetime: number }>(
      'SELECT token_hash, purpose, extract(epoch FROM expires_at - created_at)::int AS lifetime FROM identity.one_time_tokens',
    );
    expect(rows).toEqual([{ token_hash: hashToken(token), purpose: 'activation', lifetime: expect.any(Number) }]);
    expect(rows[0].token_hash).not.toContain(token);
    expect(Math.abs(rows[0].lifetime - 3 * 86400)).toBeLessThan(60);
  });

  it('refuses to log in before activation, with the same answer as a wrong password', async () => {
    const response = await identity
      .http()
      .post('/api-token-auth/')
      .set('X-Forwarded-For', identity.nextAddress())
      .send({ username: 'ada', password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
  });

  it('records organisation.updated and user.registered for the other services', async () => {
    const [user] = await identity.sql<{ id: string; organisation_id: string }>("SELECT id, organisation_id FROM identity.users WHERE username = 'ada'");
    expect(await identity.events(user.organisation_id)).toEqual([
      {
        type: 'organisation.updated',
        payload: { organisationId: user.organisation_id, name: 'Ada Lovelace', description: 'Analytical engines', email: 'ada@example.org' },
      },
    ]);
    expect(await identity.events(user.id)).toEqual([
      {
        type: 'user.registered',
        payload: {
          userId: user.id,
          username: 'ada',
          organisationId: user.organisation_id,
          clientType: 'STANDARD',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.org',
          groups: [1, 2, 3],
        },
      },
    ]);
  });

  it('refuses a taken username whatever its case, and says nothing about the email beside it', async () => {
    for (const email of ['Ada@Example.org', 'someone-else@example.org']) {
      const response = await identity.signUp('ADA', { email });
      expect([email, response.status, response.body]).toEqual([email, 400, { username: ['A user with that username already exists.'] }]);
    }
  });

  it("answers a taken email (whatever its case) exactly as a sign-up, creates nothing, and mails the address's owner how to reset their password", async () => {
    const state = async () => ({
      users: await identity.sql('SELECT id FROM identity.users ORDER BY id'),
      organisations: await identity.sql('SELECT id FROM identity.organisations ORDER BY id'),
      tokens: await identity.sql('SELECT token_hash FROM identity.one_time_tokens ORDER BY token_hash'),
      events: await identity.sql('SELECT id FROM identity.outbox_events ORDER BY id'),
    });
    const fresh = await identity.signUp('newcomer', { email: 'newcomer@example.org' });
    const before = await state();
    const mailsBefore = identity.mails().length;

    const taken = await identity.signUp('impostor', { email: 'ADA@example.org', first_name: 'Eve' });
    expect(taken.status).toBe(fresh.status);
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(taken.body).toEqual({ ...fresh.body, username: 'impostor', email: 'ADA@example.org' });
    expect(await state()).toEqual(before);

    const mails = identity.mails().slice(mailsBefore);
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [expect.stringContaining('ada@example.org'), 'Someone tried to sign up with your email address'],
    ]);
    expect(mails[0].text).toContain('Hello Ada,');
    expect(mails[0].text).toContain(`${PUBLIC_URL}/#/passreset`);
    // Nothing the caller typed is mailed (the address is someone else's to read).
    expect(mails[0].text).not.toMatch(/impostor|Eve/);
    expect(
      (await identity.http().post('/api-token-auth/').set('X-Forwarded-For', identity.nextAddress()).send({ username: 'impostor', password: PASSWORD })).status,
    ).toBe(400);
  });

  it('answers every missing field with the spec messages', async () => {
    const response = await identity.http().post('/api/register').send({});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      username: ['This field is required.'],
      email: ['This field is required.'],
      first_name: ['First Name is required'],
      last_name: ['Last Name is required'],
      description: ['A description is required.'],
      password: ['This field is required.'],
      password_confirm: ['This field is required.'],
    });
  });

  it('checks the email, the password length, the confirmation and the username characters', async () => {
    const response = await identity.signUp('bad name', { email: 'not-an-email', password: 'short', password_confirm: 'other' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'],
      email: ['Enter a valid email address.'],
      password: ['This password is too short. It must contain at least 8 characters.'],
      password_confirm: ["Passwords don't match."],
    });
  });

  it('names the new organisation as asked, trimmed, and after the person when the name is blank', async () => {
    const named = await identity.signUp('linus', { email: 'linus@example.org', organisation_name: '  Lovelace Analytics Ltd  ' });
    expect(named.status).toBe(201);
    const blank = await identity.signUp('mary', { email: 'mary@example.org', first_name: 'Mary', last_name: 'Somerville', organisation_name: ' ' });
    expect(blank.status).toBe(201);
    const rows = await identity.sql<{ username: string; name: string }>(
      "SELECT u.username, o.name FROM identity.users u JOIN identity.organisations o ON o.id = u.organisation_id WHERE u.username IN ('linus', 'mary') ORDER BY 1",
    );
    expect(rows).toEqual([
      { username: 'linus', name: 'Lovelace Analytics Ltd' },
      { username: 'mary', name: 'Mary Somerville' },
    ]);
    const [linus] = await identity.sql<{ organisation_id: string }>("SELECT organisation_id FROM identity.users WHERE username = 'linus'");
    expect(await identity.events(linus.organisation_id)).toEqual([
      expect.objectContaining({ type: 'organisation.updated', payload: expect.objectContaining({ name: 'Lovelace Analytics Ltd' }) }),
    ]);
  });

  it('refuses an organisation name over 200 characters, or one that is not text, and creates nothing', async () => {
    const long = await identity.signUp('kurt', { email: 'kurt@example.org', organisation_name: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ organisation_name: ['Ensure this field has no more than 200 characters.'] });
    const notText = await identity
      .http()
      .post('/api/register/')
      .send({ ...identity.signUpPayload('kurt', { email: 'kurt@example.org' }), organisation_name: 42 });
    expect(notText.status).toBe(400);
    expect(Object.keys(notText.body)).toEqual(['organisation_name']);
    expect(await identity.sql("SELECT 1 FROM identity.users WHERE username = 'kurt'")).toEqual([]);
  });

  it('needs no token, and a stale token cannot be used to reach it', async () => {
    const response = await identity.signUp('grace', { email: 'grace@example.org' }).set(auth('not-a-token'));
    expect(response.status).toBe(401);
  });
});
