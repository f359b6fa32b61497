import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { IdentityTestApp } from '../../testing/identity-test-app';

/** The address login failures are counted against: X-Forwarded-For only from a trusted proxy (TRUST_PROXY). */
describeInfra('identity API: the client address behind TRUST_PROXY (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  const addressesCounted = async (identity: IdentityTestApp) =>
    (await identity.sql<{ subject: string }>("SELECT DISTINCT subject FROM identity.login_failures WHERE scope = 'address' ORDER BY subject")).map(
      (row) => row.subject,
    );
  /** A failed login under a fresh name each time, so only the per-address limit can bite. */
  const failLogin = (identity: IdentityTestApp, forwardedFor: string) =>
    identity
      .http()
      .post('/api-token-auth/')
      .set('X-Forwarded-For', forwardedFor)
      .send({ username: `guess-${forwardedFor}`, password: 'wrong password' });

  beforeAll(async () => {
    db = await createTestDatabase('identity_client_address');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('believes X-Forwarded-For from a trusted proxy (the default trusts loopback, where the gateway runs in tests)', async () => {
    const identity = await IdentityTestApp.start(db.url);
    try {
      await identity.sql('DELETE FROM identity.login_failures');
      expect((await failLogin(identity, '203.0.113.7')).status).toBe(400);
      expect(await addressesCounted(identity)).toEqual(['203.0.113.7']);
    } finally {
      await identity.close();
    }
  });

  it("ignores a spoofed X-Forwarded-For from a peer that is not a trusted proxy: the peer's own address is counted and limited", async () => {
    // Only 192.0.2.10 may forward addresses; this test's loopback connection is an ordinary client.
    const identity = await IdentityTestApp.start(db.url, { env: { TRUST_PROXY: '192.0.2.10' } });
    try {
      await identity.sql('DELETE FROM identity.login_failures');
      // One name guessed from "different" addresses: believed, each would be a pair of its own.
      const guess = (forwardedFor: string) =>
        identity.http().post('/api-token-auth/').set('X-Forwarded-For', forwardedFor).send({ username: 'guessed', password: 'wrong password' });
      for (let i = 1; i <= 3; i++) expect((await guess(`198.51.100.${i}`)).status).toBe(400);
      const refused = await guess('198.51.100.99');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ detail: 'Too many failed login attempts. Please wait before trying again.' });
      expect(await addressesCounted(identity)).toEqual([expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/)]);
    } finally {
      await identity.close();
    }
  });
});
