import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { auth, IdentityTestApp, PASSWORD } from '../../testing/identity-test-app';
import { ACCOUNT_CACHE_TTL_MS, CurrentAccountTokenCheck } from './token-check';

/**
 * The token check remembers accounts briefly (every authenticated call asks it). Changes identity
 * commits in this process revoke at once; a change it did not make here (another identity
 * instance, or a hand-made fix in the database) revokes once the remembered account expires.
 */
describeInfra('identity: the remembered account of the token check (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;
  let check: CurrentAccountTokenCheck;
  let clock = 0;
  const me = (token: string) => identity.http().get('/api/account/user-account/').set(auth(token));

  beforeAll(async () => {
    db = await createTestDatabase('identity_token_check');
    identity = await IdentityTestApp.start(db.url);
    check = identity.app.get(CurrentAccountTokenCheck);
    clock = Date.now();
    check.now = () => clock;
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('revokes a token within the cache lifetime (seconds) when the account changes outside this process', async () => {
    expect(ACCOUNT_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
    const ada = await identity.founder('ada');
    expect((await me(ada.token)).status).toBe(200);
    // Deactivated behind identity's back: no event, so only the lifetime ends the remembered account.
    await identity.sql('UPDATE identity.users SET active = false WHERE id = $1', [ada.id]);
    expect((await me(ada.token)).status).toBe(200);
    clock += ACCOUNT_CACHE_TTL_MS + 1;
    expect((await me(ada.token)).status).toBe(401);
  });

  it('revokes at once when identity itself commits the change, however recently the account was remembered', async () => {
    const bob = await identity.founder('bob');
    expect((await me(bob.token)).status).toBe(200);
    const response = await identity
      .http()
      .put('/api/change-password/')
      .set(auth(bob.token))
      .send({ old_password: PASSWORD, new_password: 'another long passphrase', new_password_confirm: 'another long passphrase' });
    expect(response.status).toBe(200);
    // The clock has not moved: only the commit's forgetting makes the remembered account stale.
    expect((await me(bob.token)).status).toBe(401);
  });
});
