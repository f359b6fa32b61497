import { randomUUID } from 'node:crypto';
import { createEvent, OrganisationUpdated, PolicyUpdated, RecordCreated, RecordDeleted, RecordUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { person, recordSnapshot, RequestsTestApp } from '../../testing/requests-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const owner = person('oo-owner', orgA, [3]);
const requestor = person('oo-requestor', orgB, [3]);
const HOUR = 3_600_000;
/** Event times around now: at(-2) happened two hours before at(0). */
const at = (hours: number) => new Date(Date.now() + hours * HOUR);

const userUpdated = (who: typeof owner, username: string, email: string, occurredAt: Date) =>
  createEvent(
    UserUpdated,
    who.id,
    { userId: who.id, username, organisationId: who.organisationId, clientType: 'STANDARD', active: true, email, groups: who.groups },
    { occurredAt },
  );

describeInfra("requests' projections ignore events older than the state they hold (real PostgreSQL)", true, () => {
  let db: TestDatabase;
  let service: RequestsTestApp;
  const user = async (id: string) =>
    (await service.sql<{ username: string; email: string; active: boolean }>('SELECT username, email, active FROM requests.users WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('dc_requests_order');
    service = await RequestsTestApp.start(db.url);
    await service.feedPeople([owner], { [orgA]: { name: 'Acme' } });
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  it('users: a late user.updated or user.registered from before the applied one changes nothing; a newer one applies', async () => {
    const someone = person('oo-someone', orgA, [3]);
    await service.feed(userUpdated(someone, 'oo-renamed', 'renamed@example.org', at(-1)));
    await service.feed(userUpdated(someone, 'oo-original', 'original@example.org', at(-2)));
    await service.feed(
      createEvent(
        UserRegistered,
        someone.id,
        { userId: someone.id, username: 'oo-registered', organisationId: orgA, clientType: 'STANDARD', email: 'registered@example.org' },
        { occurredAt: at(-3) },
      ),
    );
    expect(await user(someone.id)).toEqual({ username: 'oo-renamed', email: 'renamed@example.org', active: true });

    await service.feed(userUpdated(someone, 'oo-latest', 'latest@example.org', at(0)));
    expect(await user(someone.id)).toEqual({ username: 'oo-latest', email: 'latest@example.org', active: true });
    // The same event delivered again is applied again, harmlessly.
    const again = userUpdated(someone, 'oo-again', 'again@example.org', at(0.5));
    await service.feed(again);
    await service.feed({ ...again, id: randomUUID() });
    expect((await user(someone.id)).username).toBe('oo-again');
  });

  it('organisations: a late organisation.updated from before the applied one changes nothing', async () => {
    const organisationId = randomUUID();
    const organisation = (name: string, occurredAt: Date) =>
      createEvent(OrganisationUpdated, organisationId, { organisationId, name, description: `${name} description` }, { occurredAt });
    await service.feed(organisation('Newer', at(-1)));
    await service.feed(organisation('Older', at(-2)));
    expect(await service.sql('SELECT name, description FROM requests.organisations WHERE id = $1', [organisationId])).toEqual([
      { name: 'Newer', description: 'Newer description' },
    ]);
    await service.feed(organisation('Newest', at(0)));
    expect((await service.sql('SELECT name FROM requests.organisations WHERE id = $1', [organisationId]))[0]).toEqual({ name: 'Newest' });
  });

  it("a caller known from their token alone takes identity's events, however old", async () => {
    const record = recordSnapshot(owner);
    await service.feedRecord(record);
    await service
      .http()
      .post('/api/requests/')
      .set(await service.auth(requestor))
      .send({ record: record.recordId })
      .expect(201);
    expect(await user(requestor.id)).toEqual({ username: 'oo-requestor', email: '', active: true });
    await service.feed(userUpdated(requestor, 'oo-requestor', 'requestor@example.org', at(-24)));
    expect(await user(requestor.id)).toEqual({ username: 'oo-requestor', email: 'requestor@example.org', active: true });
  });

  it('records: a late record.updated changes nothing, and a record deleted before its record.created arrives stays deleted', async () => {
    const record = recordSnapshot(owner, { name: 'Newer name' });
    await service.feed(createEvent(RecordUpdated, record.recordId, record, { occurredAt: at(-1) }));
    await service.feed(createEvent(RecordUpdated, record.recordId, { ...record, name: 'Older name' }, { occurredAt: at(-2) }));
    expect(await service.sql('SELECT name, deleted FROM requests.records WHERE id = $1', [record.recordId])).toEqual([{ name: 'Newer name', deleted: false }]);

    const gone = recordSnapshot(owner, { name: 'Gone' });
    await service.feed(createEvent(RecordDeleted, gone.recordId, { recordId: gone.recordId, ownerId: owner.id, organisationId: orgA }, { occurredAt: at(-1) }));
    await service.feed(createEvent(RecordCreated, gone.recordId, gone, { occurredAt: at(-2) }));
    expect(await service.sql('SELECT deleted FROM requests.records WHERE id = $1', [gone.recordId])).toEqual([{ deleted: true }]);
    const refused = await service
      .http()
      .post('/api/requests/')
      .set(await service.auth(requestor))
      .send({ record: gone.recordId });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ record: [`Invalid pk "${gone.recordId}" - object does not exist.`] });
  });

  it('policies: a late policy.updated of an older version changes nothing', async () => {
    const policyId = randomUUID();
    const policy = (name: string, version: number) =>
      createEvent(PolicyUpdated, policyId, {
        policyId,
        organisationId: orgA,
        ownerId: owner.id,
        name,
        fields: [],
        createdAt: at(-3).toISOString(),
        changedAt: at(0).toISOString(),
        version,
      });
    await service.feed(policy('Second', 2));
    await service.feed(policy('First', 1));
    expect(await service.sql('SELECT name, version FROM requests.policies WHERE id = $1', [policyId])).toEqual([{ name: 'Second', version: 2 }]);
  });
});
