import { APP_CONFIG, AppConfig } from '@dc/platform';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';
import { RevocationList } from './revocation-list';
import { RevokedTokens, TOKEN_REVOKED_CHANNEL } from './revoked-tokens.repository';

/** The guarantee of the identity issue: a token ended by logout stops working within seconds everywhere. */
const WITHIN_SECONDS = 10_000;

/**
 * Two identity instances on one database, as in distributed mode with several identity processes:
 * each holds its own revocation list, kept in step through PostgreSQL NOTIFY.
 */
describeInfra('identity: the revocation list held in memory (real PostgreSQL, two instances)', true, () => {
  let db: TestDatabase;
  let first: IdentityTestApp;
  let second: IdentityTestApp;
  const me = (app: IdentityTestApp, token: string) => app.http().get('/api/account/user-account/').set(auth(token));
  const logout = (app: IdentityTestApp, token: string) => app.http().post('/api/logout/').set(auth(token));
  /** Another instance signs with the same secret as the first. */
  const sameSecret = () => ({ env: { JWT_SECRET: first.app.get<AppConfig>(APP_CONFIG).JWT_SECRET! } });
  const login = async (username: string) =>
    (await first.http().post('/api-token-auth/').set('X-Forwarded-For', first.nextAddress()).send({ username, password: PASSWORD })).body.token as string;

  beforeAll(async () => {
    db = await createTestDatabase('identity_revocation_list');
    first = await IdentityTestApp.start(db.url);
    second = await IdentityTestApp.start(db.url, sameSecret());
    await first.founder('ada');
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await second?.close();
    await first?.close();
    await db?.drop();
  });

  it('answers from memory once in step: an authenticated call asks the table nothing', async () => {
    for (const app of [first, second]) await eventually(async () => expect(app.app.get(RevocationList).current).toBe(true));
    const token = await login('ada');
    const asked = jest.spyOn(second.app.get(RevokedTokens), 'isRevoked');
    expect((await me(second, token)).status).toBe(200);
    expect((await me(second, token)).status).toBe(200);
    expect(asked).not.toHaveBeenCalled();
    asked.mockRestore();
  });

  it('refuses a token on the other instance within seconds of its logout on one', async () => {
    const token = await login('ada');
    const other = await login('ada');
    expect((await me(second, token)).status).toBe(200);
    expect((await logout(first, token)).status).toBe(204);
    // At once where the logout happened, within seconds on the other instance.
    expect((await me(first, token)).status).toBe(401);
    await eventually(async () => expect((await me(second, token)).status).toBe(401), WITHIN_SECONDS);
    // Other sessions of the account keep working on both.
    expect((await me(first, other)).status).toBe(200);
    expect((await me(second, other)).status).toBe(200);
  });

  it('loads the logouts made before it started', async () => {
    const token = await login('ada');
    expect((await logout(first, token)).status).toBe(204);
    const late = await IdentityTestApp.start(db.url, sameSecret());
    try {
      await eventually(async () => expect(late.app.get(RevocationList).current).toBe(true));
      const asked = jest.spyOn(late.app.get(RevokedTokens), 'isRevoked');
      expect((await me(late, token)).status).toBe(401);
      expect(asked).not.toHaveBeenCalled();
    } finally {
      await late.close();
    }
  });

  it('asks the table while its channel is lost, and is in step again after reconnecting', async () => {
    const token = await login('ada');
    const list = second.app.get(RevocationList);
    expect((await me(second, token)).status).toBe(200);
    // Cut the listening connections of both instances, as a database restart or network fault would.
    await second.sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
      `listen:${TOKEN_REVOKED_CHANNEL}`,
    ]);
    await eventually(async () => expect(list.current).toBe(false), WITHIN_SECONDS);
    // A logout while nothing is heard: the other instance still refuses the token (it asks the table).
    expect((await logout(first, token)).status).toBe(204);
    expect((await me(second, token)).status).toBe(401);
    await eventually(async () => expect(list.current).toBe(true), WITHIN_SECONDS);
    // Back in step, from memory: the logout it did not hear was reloaded.
    expect((await me(second, token)).status).toBe(401);
  });
});
