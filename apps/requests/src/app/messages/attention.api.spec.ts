import { randomUUID } from 'node:crypto';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { Person, person, recordSnapshot, RequestsTestApp } from '../../testing/requests-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const orgC = randomUUID();
const owner = person('at-owner', orgA, [3]);
const dataAdmin = person('at-admin', orgA, [2]);
const requestor = person('at-requestor', orgB, [3]);
const stranger = person('at-stranger', orgC, [1, 2, 3]);
const everyone = [owner, dataAdmin, requestor, stranger];
const NOTHING = { count: 0, pending_requests: 0, unread_messages: 0, requests: [] };

describeInfra('requests API: what waits for the caller, and marking a thread read (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: RequestsTestApp;
  const headers = new Map<Person, { Authorization: string }>();
  const as = (who: Person) => headers.get(who)!;
  const http = () => service.http();
  const rainfall = recordSnapshot(owner, { name: 'Rainfall' });
  const snowfall = recordSnapshot(owner, { name: 'Snowfall' });
  const attention = async (who: Person) => (await http().get('/api/requests/attention/').set(as(who)).expect(200)).body;
  const say = async (who: Person, request: string, message: string) =>
    (await http().post('/api/request-messages/').set(as(who)).send({ request, message }).expect(201)).body;
  const read = (who: Person, body: object) => http().post('/api/request-messages/read/').set(as(who)).send(body);
  const open = async (recordId: string) => (await http().post('/api/requests/').set(as(requestor)).send({ record: recordId, status: 'new' }).expect(201)).body;
  const move = (id: string, who: Person, body: object) => http().put(`/api/requests/${id}/`).set(as(who)).send(body).expect(200);

  beforeAll(async () => {
    db = await createTestDatabase('dc_requests_attention');
    service = await RequestsTestApp.start(db.url);
    for (const who of everyone) headers.set(who, await service.auth(who));
    await service.feedPeople(everyone, { [orgA]: { name: 'Acme' }, [orgB]: { name: 'Blue' }, [orgC]: { name: 'Cyan' } });
    await service.feedRecord(rainfall);
    await service.feedRecord(snowfall);
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  it('a draft waits for nobody; a sent request waits for the owner side until decided; messages wait for the other side until read', async () => {
    const draft = await open(rainfall.recordId);
    expect(await attention(owner)).toEqual(NOTHING);
    expect(await attention(requestor)).toEqual(NOTHING);

    await move(draft.id, requestor, { status: 'sent' });
    const pendingOnly = { count: 1, pending_requests: 1, unread_messages: 0, requests: [{ request: draft.id, pending: true, unread_messages: 0 }] };
    expect(await attention(owner)).toEqual(pendingOnly);
    // The organisation's Data Admin reviews it too; the requestor and a stranger have nothing waiting.
    expect(await attention(dataAdmin)).toEqual(pendingOnly);
    expect(await attention(requestor)).toEqual(NOTHING);
    expect(await attention(stranger)).toEqual(NOTHING);

    // In review it still waits for a decision; the requestor's two messages wait for the owner side, not for their author.
    await move(draft.id, owner, { status: 'review' });
    await say(requestor, draft.id, 'Which years?');
    await say(requestor, draft.id, 'All of them, please.');
    expect(await attention(owner)).toEqual({
      count: 3,
      pending_requests: 1,
      unread_messages: 2,
      requests: [{ request: draft.id, pending: true, unread_messages: 2 }],
    });
    expect(await attention(requestor)).toEqual(NOTHING);

    // The owner reads the thread: their messages are read, the Data Admin's are not (each reads for themself).
    const marked = await read(owner, { request: draft.id }).expect(200);
    expect(marked.body).toEqual({ request: draft.id, read_until: expect.any(String) });
    expect(await attention(owner)).toEqual(pendingOnly);
    expect((await attention(dataAdmin)).unread_messages).toBe(2);

    // The owner's answer waits for the requestor; a fellow reviewer's message does not wait for the owner.
    const answer = await say(owner, draft.id, 'Approved soon.');
    await say(dataAdmin, draft.id, 'Seen, from the Data Admin.');
    expect(await attention(owner)).toEqual(pendingOnly);
    expect(await attention(requestor)).toMatchObject({ count: 2, pending_requests: 0, unread_messages: 2 });

    // Read up to a named message: what came after it stays unread.
    await read(requestor, { request: draft.id, message: answer.id }).expect(200);
    expect(await attention(requestor)).toEqual({
      count: 1,
      pending_requests: 0,
      unread_messages: 1,
      requests: [{ request: draft.id, pending: false, unread_messages: 1 }],
    });
    // Reading up to an older message again never moves the mark back.
    const [first] = (await http().get('/api/request-messages/').query({ request: draft.id }).set(as(requestor)).expect(200)).body.results;
    await read(requestor, { request: draft.id, message: first.id }).expect(200);
    expect((await attention(requestor)).unread_messages).toBe(1);
    await read(requestor, { request: draft.id }).expect(200);
    expect(await attention(requestor)).toEqual(NOTHING);

    // Deciding ends the wait; a new message after the read mark waits again.
    await move(draft.id, owner, { status: 'approved' });
    expect(await attention(owner)).toEqual(NOTHING);
    await say(requestor, draft.id, 'Thank you!');
    expect(await attention(owner)).toMatchObject({ count: 1, pending_requests: 0, unread_messages: 1 });

    // A closed request waits for nobody, whatever its thread holds.
    await move(draft.id, requestor, { status: 'closed' });
    expect(await attention(owner)).toEqual(NOTHING);
    expect((await attention(dataAdmin)).count).toBe(0);
  });

  it('marking read checks who asks and what: the request must be theirs, the message must be of it', async () => {
    const request = await open(snowfall.recordId);
    await move(request.id, requestor, { status: 'sent' });
    const message = await say(requestor, request.id, 'Hello');
    const elsewhere = randomUUID();

    // A stranger learns nothing of the request: the same answer as for one that does not exist.
    const refused = await read(stranger, { request: request.id }).expect(400);
    const missing = await read(stranger, { request: elsewhere }).expect(400);
    expect(refused.body).toEqual({ request: [`Invalid pk "${request.id}" - object does not exist.`] });
    expect(missing.body).toEqual({ request: [`Invalid pk "${elsewhere}" - object does not exist.`] });
    expect((await attention(owner)).unread_messages).toBe(1);

    await read(owner, { request: request.id, message: elsewhere }).expect(400);
    await read(owner, { request: request.id, message: 'not-an-id' }).expect(400);
    expect((await read(owner, {}).expect(400)).body).toEqual({ request: ['This field is required.'] });
    expect((await attention(owner)).unread_messages).toBe(1);

    await read(owner, { request: request.id, message: message.id }).expect(200);
    expect((await attention(owner)).unread_messages).toBe(0);
    await http().get('/api/requests/attention/').expect(401);
    await http().post('/api/request-messages/read/').send({ request: request.id }).expect(401);
  });
});
