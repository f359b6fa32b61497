import { randomUUID } from 'node:crypto';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { person, recordSnapshot, RequestsTestApp } from '../../testing/requests-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const owner = person('rl-owner', orgA, [3]);
const requestor = person('rl-requestor', orgB, [3]);

describeInfra('requests API: lists are paged as {count, next, previous, results} (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: RequestsTestApp;
  let asOwner: { Authorization: string };
  let asRequestor: { Authorization: string };
  // Three records without a policy, so their requests can be sent at once.
  const records = [1, 2, 3].map((n) => recordSnapshot(owner, { name: `Rainfall ${n}` }));
  const requestIds: string[] = [];
  const http = () => service.http();

  beforeAll(async () => {
    db = await createTestDatabase('dc_requests_lists');
    service = await RequestsTestApp.start(db.url);
    asOwner = await service.auth(owner);
    asRequestor = await service.auth(requestor);
    await service.feedPeople([owner, requestor], { [orgA]: { name: 'Acme' }, [orgB]: { name: 'Blue' } });
    for (const record of records) await service.feedRecord(record);
    for (const record of records) {
      const created = await http().post('/api/requests/').set(asRequestor).send({ record: record.recordId, status: 'new' }).expect(201);
      await http().put(`/api/requests/${created.body.id}/`).set(asRequestor).send({ status: 'sent' }).expect(200);
      requestIds.push(created.body.id);
    }
    // Three entries in the first request's thread, three more in the first record's audit trail (created, sent, review).
    for (const message of ['one', 'two', 'three']) {
      await http().post('/api/request-messages/').set(asRequestor).send({ request: requestIds[0], message }).expect(201);
    }
    await http().put(`/api/requests/${requestIds[0]}/`).set(asOwner).send({ status: 'review' }).expect(200);
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  it('My Requests: the first page links the next when more exist, the last links the previous; one page alone links neither', async () => {
    const first = await http().get('/api/requests/sent_requests/').query({ page_size: 2 }).set(asRequestor).expect(200);
    expect(Object.keys(first.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(first.body).toMatchObject({ count: 3, next: '?page=2', previous: null });
    expect(first.body.results).toHaveLength(2);

    const second = await http().get('/api/requests/sent_requests/').query({ page: 2, page_size: 2 }).set(asRequestor).expect(200);
    expect(second.body).toMatchObject({ count: 3, next: null, previous: '?page=1' });
    expect(second.body.results).toHaveLength(1);
    // Newest first, and the two pages together hold every request once.
    expect([...first.body.results, ...second.body.results].map((r: { id: string }) => r.id)).toEqual([...requestIds].reverse());

    const whole = await http().get('/api/requests/sent_requests/').set(asRequestor).expect(200);
    expect(whole.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(whole.body.results).toHaveLength(3);

    const past = await http().get('/api/requests/sent_requests/').query({ page: 5, page_size: 2 }).set(asRequestor).expect(200);
    expect(past.body).toEqual({ count: 3, next: null, previous: '?page=4', results: [] });
  });

  it('Received Requests: the same links for the owner side', async () => {
    const first = await http().get('/api/requests/received_requests/').query({ page_size: 1 }).set(asOwner).expect(200);
    expect(first.body).toMatchObject({ count: 3, next: '?page=2', previous: null });
    const middle = await http().get('/api/requests/received_requests/').query({ page: 2, page_size: 1 }).set(asOwner).expect(200);
    expect(middle.body).toMatchObject({ count: 3, next: '?page=3', previous: '?page=1' });
    const last = await http().get('/api/requests/received_requests/').query({ page: 3, page_size: 1 }).set(asOwner).expect(200);
    expect(last.body).toMatchObject({ count: 3, next: null, previous: '?page=2' });
    expect([first, middle, last].map((r) => r.body.results[0].id)).toEqual([...requestIds].reverse());
  });

  it("a request's thread: the links keep the request they are about", async () => {
    const first = await http().get('/api/request-messages/').query({ request: requestIds[0], page_size: 2 }).set(asOwner).expect(200);
    expect(first.body).toMatchObject({ count: 3, next: `?request=${requestIds[0]}&page=2`, previous: null });
    expect(first.body.results.map((m: { message: string }) => m.message)).toEqual(['one', 'two']);
    const second = await http().get('/api/request-messages/').query({ request: requestIds[0], page: 2, page_size: 2 }).set(asOwner).expect(200);
    expect(second.body).toMatchObject({ count: 3, next: null, previous: `?request=${requestIds[0]}&page=1` });
    expect(second.body.results.map((m: { message: string }) => m.message)).toEqual(['three']);
  });

  it("a record's audit trail: the links keep the record they are about", async () => {
    const recordId = records[0].recordId;
    const first = await http().get('/api/requests/audit/').query({ record: recordId, page_size: 2 }).set(asOwner).expect(200);
    expect(first.body).toMatchObject({ count: 3, next: `?record=${recordId}&page=2`, previous: null });
    expect(first.body.results.map((e: { action: string }) => e.action)).toEqual(['created', 'sent']);
    const second = await http().get('/api/requests/audit/').query({ record: recordId, page: 2, page_size: 2 }).set(asOwner).expect(200);
    expect(second.body).toMatchObject({ count: 3, next: null, previous: `?record=${recordId}&page=1` });
    expect(second.body.results.map((e: { action: string }) => e.action)).toEqual(['review']);
  });
});
