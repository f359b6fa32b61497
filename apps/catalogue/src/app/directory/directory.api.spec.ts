import { randomUUID } from 'node:crypto';
import { createEvent, type EventEnvelope, OrganisationUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { CatalogueTestApp } from '../../testing/catalogue-test-app';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describeInfra("catalogue directory projection: identity's events out of order (real PostgreSQL)", true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;

  /** Publishes the events and waits until the catalogue's consumer has handled every one of them. */
  const apply = async (...events: EventEnvelope[]) => {
    await catalogue.app.get(EventBus).publish(events);
    await eventually(async () => {
      const [{ n }] = await catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.processed_events WHERE event_id = ANY($1::uuid[])', [
        events.map((e) => e.id),
      ]);
      expect(n).toBe(events.length);
    });
  };
  const user = async (id: string) =>
    (await catalogue.sql('SELECT username, organisation_id, active, deleted, groups FROM catalogue.users WHERE id = $1', [id]))[0];
  const organisation = async (id: string) => (await catalogue.sql('SELECT name, description FROM catalogue.organisations WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue');
    catalogue = await CatalogueTestApp.start(db.url);
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('keeps the newer user state when an older event arrives after it', async () => {
    const userId = randomUUID();
    const organisationId = randomUUID();
    const person = { userId, organisationId, clientType: 'STANDARD' as const };
    await apply(createEvent(UserUpdated, userId, { ...person, username: 'renamed', active: true, groups: [3] }, { occurredAt: minutesAgo(1) }));
    // The registration and an older change, delivered late: neither brings back the old state.
    await apply(
      createEvent(UserRegistered, userId, { ...person, username: 'first', groups: [] }, { occurredAt: minutesAgo(10) }),
      createEvent(UserUpdated, userId, { ...person, username: 'older', active: false, deleted: true, groups: [1] }, { occurredAt: minutesAgo(5) }),
    );
    expect(await user(userId)).toEqual({ username: 'renamed', organisation_id: organisationId, active: true, deleted: false, groups: [3] });

    // A newer event still applies.
    await apply(createEvent(UserUpdated, userId, { ...person, username: 'latest', active: false, groups: [3] }, { occurredAt: new Date() }));
    expect(await user(userId)).toMatchObject({ username: 'latest', active: false });
  });

  it('keeps the newer organisation name when an older event arrives after it', async () => {
    const organisationId = randomUUID();
    await apply(createEvent(OrganisationUpdated, organisationId, { organisationId, name: 'Acme 2', description: 'new' }, { occurredAt: minutesAgo(1) }));
    await apply(createEvent(OrganisationUpdated, organisationId, { organisationId, name: 'Acme', description: 'old' }, { occurredAt: minutesAgo(2) }));
    expect(await organisation(organisationId)).toEqual({ name: 'Acme 2', description: 'new' });
    await apply(createEvent(OrganisationUpdated, organisationId, { organisationId, name: 'Acme 3' }, { occurredAt: new Date() }));
    expect(await organisation(organisationId)).toEqual({ name: 'Acme 3', description: '' });
  });

  it("lets identity's events overwrite a caller remembered from their token", async () => {
    const userId = randomUUID();
    const organisationId = randomUUID();
    await catalogue.sql(
      `INSERT INTO catalogue.users (id, username, organisation_id, client_type, active, groups) VALUES ($1, 'from-token', $2, 'STANDARD', true, '{3}')`,
      [userId, organisationId],
    );
    await apply(
      createEvent(
        UserUpdated,
        userId,
        { userId, organisationId, clientType: 'BASIC', username: 'from-identity', active: true },
        { occurredAt: minutesAgo(60) },
      ),
    );
    expect(await user(userId)).toMatchObject({ username: 'from-identity', groups: [3] });
  });
});
