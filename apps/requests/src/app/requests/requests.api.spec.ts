import { randomUUID } from 'node:crypto';
import { ServiceDatabase } from '@dc/platform';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { AuditRepository } from '../audit/audit.repository';
import { Person, person, recordSnapshot, RequestsTestApp } from '../../testing/requests-test-app';

const orgA = randomUUID();
const orgB = randomUUID();
const orgC = randomUUID();
const owner = person('rq-owner', orgA, [3]);
const dataAdmin = person('rq-admin', orgA, [2]);
const dataViewer = person('rq-viewer', orgA, [3]);
const basicSub = person('rq-basic', orgA, [3], 'BASIC');
const requestor = person('rq-requestor', orgB, [3]);
const colleague = person('rq-colleague', orgB, [3]);
const stranger = person('rq-stranger', orgC, [1, 2, 3]);
const everyone = [owner, dataAdmin, dataViewer, basicSub, requestor, colleague, stranger];

const policyId = randomUUID();
const POLICY = [
  { topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' as const },
  { topic: 'Resale', requirement: 'You will sell the data', agree: 'no' as const },
];
const ANSWERS = [
  {
    id: policyId,
    json_content: [
      { object: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' },
      { object: 'Resale', requirement: 'You will sell the data', agree: 'no' },
    ],
  },
];
const NOT_FOUND = { detail: 'Not found.' };

describeInfra('requests API: requests, status machine, messages, mail, audit trail (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: RequestsTestApp;
  const headers = new Map<Person, { Authorization: string }>();
  const as = (who: Person) => headers.get(who)!;
  const http = () => service.http();
  const record = recordSnapshot(owner, { name: 'Rainfall 2024', policyId });
  const put = (id: string, who: Person, body: object) => http().put(`/api/requests/${id}/`).set(as(who)).send(body);
  /** The caller's open request for the record, created or (200 with a message) the existing one. */
  const open = async (who: Person, recordId = record.recordId) => {
    const { body } = await http().post('/api/requests/').set(as(who)).send({ record: recordId, status: 'new' });
    return body.request ?? body;
  };
  const outboxCount = async () => (await service.sql<{ n: number }>('SELECT count(*)::int AS n FROM requests.outbox_events'))[0].n;
  const state = async (id: string) =>
    (await service.sql('SELECT status, purpose, note, access_policies, version FROM requests.requests WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('dc_requests');
    service = await RequestsTestApp.start(db.url);
    for (const who of everyone) headers.set(who, await service.auth(who));
    await service.feedPeople(everyone, { [orgA]: { name: 'Acme' }, [orgB]: { name: 'Blue', description: 'Marine research' }, [orgC]: { name: 'Cyan' } });
    await service.feedPolicy({ id: policyId, organisationId: orgA, ownerId: owner.id, name: 'Research only', fields: POLICY });
    await service.feedRecord(record);
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  describe('opening a request', () => {
    it('refuses unknown, hidden, own, own-organisation and open records in the record field', async () => {
      const hidden = recordSnapshot(owner, { visibility: 'PR' });
      const openRecord = recordSnapshot(owner, { access: 'OP' });
      await service.feedRecord(hidden);
      await service.feedRecord(openRecord);
      const unknown = randomUUID();
      const cases: Array<[Person, string, string]> = [
        [requestor, unknown, `Invalid pk "${unknown}" - object does not exist.`],
        [requestor, 'not-a-uuid', 'Invalid pk "not-a-uuid" - object does not exist.'],
        [requestor, hidden.recordId, `Invalid pk "${hidden.recordId}" - object does not exist.`],
        [owner, record.recordId, 'You own this record: owners cannot request their own data.'],
        [dataAdmin, record.recordId, 'Your organisation owns this record: you may download it without a request.'],
        [requestor, openRecord.recordId, 'This record is open: whoever may see it may download it without a request.'],
      ];
      for (const [who, recordId, message] of cases) {
        const response = await http().post('/api/requests/').set(as(who)).send({ record: recordId, status: 'new' });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ record: [message] });
      }
      expect((await http().post('/api/requests/').set(as(requestor)).send({})).body).toEqual({ record: ['This field is required.'] });
      expect((await http().post('/api/requests/').set(as(requestor)).send({ record: record.recordId, status: 'sent' })).body).toEqual({
        status: ['A request starts in status new.'],
      });
      expect((await http().post('/api/requests/').send({ record: record.recordId })).status).toBe(401);
      expect((await service.sql('SELECT id FROM requests.requests')).length).toBe(0);
    });

    it('creates one request per requestor and record: the policy unanswered, request.created published; a second POST answers with a message and the same request', async () => {
      const created = await http().post('/api/requests').set(as(requestor)).send({ record: record.recordId, status: 'new' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        record: record.recordId,
        record_name: 'Rainfall 2024',
        requestor: 'rq-requestor',
        requestor_org_name: 'Blue',
        requestor_org_desc: 'Marine research',
        status: 'new',
        purpose: '',
        note: '',
        data_admin: 'rq-owner',
        expires_at: null,
        role: 'requestor',
        access_policies: [
          {
            id: policyId,
            name: 'Research only',
            json_content: POLICY.map((p) => ({ object: p.topic, requirement: p.requirement, agree: '', expected: p.agree })),
          },
        ],
      });
      const again = await http().post('/api/requests/').set(as(requestor)).send({ record: record.recordId, status: 'new' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        message: 'You have already requested this record: your request is loaded.',
        request: expect.objectContaining({ id: created.body.id }),
      });
      expect((await service.events(created.body.id)).map((e) => e.type)).toEqual(['request.created']);
      // A draft is the requestor's alone.
      expect((await http().get(`/api/requests/${created.body.id}`).set(as(owner))).status).toBe(404);
      expect((await http().get('/api/requests/received_requests/').set(as(owner))).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    });
  });

  describe('the status machine', () => {
    let id: string;
    beforeAll(async () => {
      id = (await open(requestor)).id;
    });

    it('while new the requestor edits; sending needs every requirement answered, and answers to unknown requirements change nothing', async () => {
      const before = await state(id);
      const events = await outboxCount();
      const unknownItem = await put(id, requestor, {
        status: 'sent',
        purpose: 'Study',
        access_policies: [{ id: policyId, json_content: [{ object: 'Ethics', requirement: 'Something else', agree: 'yes' }] }],
      });
      expect(unknownItem.status).toBe(400);
      expect(unknownItem.body).toEqual({ access_policies: ['"Ethics: Something else" is not a requirement of the policy "Research only".'] });
      const unknownPolicy = await put(id, requestor, { status: 'new', access_policies: [{ id: randomUUID(), json_content: [] }] });
      expect(unknownPolicy.status).toBe(400);
      const unanswered = await put(id, requestor, { status: 'sent', purpose: 'Study' });
      expect(unanswered.body).toEqual({ access_policies: ['Answer every requirement of the policy yes or no before sending the request.'] });
      expect(
        (
          await put(id, requestor, {
            status: 'sent',
            access_policies: [{ id: policyId, json_content: [{ object: 'Ethics', requirement: 'An approved ethics protocol', agree: 'maybe' }] }],
          })
        ).status,
      ).toBe(400);
      expect(await state(id)).toEqual(before);
      expect(await outboxCount()).toBe(events);

      const edited = await put(id, requestor, { status: 'new', purpose: 'Flood study', note: 'For a thesis' });
      expect(edited.body).toMatchObject({ status: 'new', purpose: 'Flood study', note: 'For a thesis' });
    });

    it('new -> sent: answers, purpose and note become read-only; the owner side is mailed; sending twice is refused', async () => {
      const sent = await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ status: 'sent', sent: expect.any(String) });
      expect(sent.body.access_policies[0].json_content.map((i: { agree: string }) => i.agree)).toEqual(['yes', 'no']);
      const [mailToOwner] = await service.mailsTo(id, owner.email);
      expect(mailToOwner.values).toMatchObject({ subject: 'New data request for "Rainfall 2024"', action: { path: `/#/request?tab=received&id=${id}` } });
      expect(mailToOwner.values.paragraphs).toEqual([
        'rq-requestor of Blue asks for access to "Rainfall 2024".',
        'Purpose: Flood study',
        'Open the request to review it and answer in its message thread.',
      ]);
      expect(await service.mailsTo(id, dataAdmin.email)).toHaveLength(1);
      expect(await service.mailsTo(id, dataViewer.email)).toHaveLength(0);

      const twice = await put(id, requestor, { status: 'sent' });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ status: ['A request in status sent cannot become sent.'] });
      const edit = await put(id, requestor, { status: 'closed', purpose: 'Something else' });
      expect(edit.status).toBe(400);
      expect(edit.body).toEqual({ non_field_errors: ['Answers, purpose and note are read-only once a request was sent.'] });
      // The same values sent back are no change.
      expect((await put(id, dataAdmin, { status: 'review', purpose: 'Flood study', note: 'For a thesis', access_policies: ANSWERS })).status).toBe(200);
    });

    it("review -> approved with an expiry (confirmation is the client's); the requestor may not decide, and approving twice is refused", async () => {
      expect((await put(id, requestor, { status: 'approved' })).status).toBe(403);
      expect((await put(id, owner, { status: 'closed' })).status).toBe(403);
      const past = await put(id, owner, { status: 'approved', expires_at: '2001-01-01' });
      expect(past.body).toEqual({ expires_at: ['The expiry must be in the future.'] });
      expect((await put(id, owner, { status: 'approved', expires_at: 'soon' })).body).toEqual({
        expires_at: ['Enter a date (YYYY-MM-DD) or a date and time.'],
      });
      expect((await put(id, owner, { status: 'disapproved', expires_at: '2999-01-01' })).body).toEqual({ expires_at: ['Only an approval takes an expiry.'] });

      const approved = await put(id, owner, { status: 'approved', expires_at: '2999-12-31' });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({
        status: 'approved',
        expires_at: '2999-12-31T23:59:59.999Z',
        expired: false,
        decided_by: 'rq-owner',
        role: 'reviewer',
      });
      expect((await put(id, dataAdmin, { status: 'approved' })).body).toEqual({ status: ['A request in status approved cannot become approved.'] });
      const [mail] = await service.mailsTo(id, requestor.email);
      expect(mail.values.subject).toBe('Your data request for "Rainfall 2024" was approved');
      expect(mail.values.paragraphs[1]).toBe('Your access ends on 2999-12-31.');
      const updates = (await service.events(id))
        .filter((e) => e.type === 'request.updated')
        .map((e) => e.payload as { status: string; version: number; expiresAt: string | null });
      expect(updates.map((u) => [u.status, u.version])).toEqual([
        ['new', 2],
        ['sent', 3],
        ['review', 4],
        ['approved', 5],
      ]);
      expect(updates.at(-1)!.expiresAt).toBe('2999-12-31T23:59:59.999Z');
    });

    it('approved -> revoked needs a reason, which lands in the thread; the requestor is mailed', async () => {
      expect((await put(id, owner, { status: 'revoked' })).body).toEqual({ reason: ['Give a reason: the requestor reads it in the message thread.'] });
      const revoked = await put(id, dataAdmin, { status: 'revoked', reason: 'The licence ended.' });
      expect(revoked.body).toMatchObject({ status: 'revoked', revoke_reason: 'The licence ended.' });
      const thread = await http().get('/api/request-messages/').query({ request: id }).set(as(requestor));
      expect(thread.body.results.at(-1)).toMatchObject({ message: 'Access revoked: The licence ended.', user: 'rq-admin', mine: false });
      expect((await service.mailsTo(id, requestor.email)).at(-1)!.values.subject).toBe('Your access to "Rainfall 2024" was withdrawn');
    });

    it('the requestor closes it: gone from every list, nothing reopens it, and a new request may start', async () => {
      expect((await put(id, requestor, { status: 'closed' })).body.status).toBe('closed');
      expect((await http().get('/api/requests/sent_requests').set(as(requestor))).body.results.map((r: { id: string }) => r.id)).not.toContain(id);
      expect((await http().get('/api/requests/received_requests').set(as(owner))).body.results.map((r: { id: string }) => r.id)).not.toContain(id);
      for (const [who, status] of [
        [requestor, 'new'],
        [requestor, 'sent'],
        [owner, 'approved'],
      ] as const) {
        const response = await put(id, who, { status });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ status: ['This request is closed and cannot be reopened.'] });
      }
      expect((await http().post('/api/request-messages/').set(as(requestor)).send({ request: id, message: 'Hello?' })).body).toEqual({
        non_field_errors: ['This request is closed and cannot be reopened.'],
      });
      const fresh = await http().post('/api/requests/').set(as(requestor)).send({ record: record.recordId });
      expect(fresh.status).toBe(201);
      expect(fresh.body.id).not.toBe(id);
    });
  });

  describe('who may do what (404 for those with no part)', () => {
    let id: string;
    beforeAll(async () => {
      id = (await open(colleague)).id;
      await put(id, colleague, { status: 'sent', access_policies: ANSWERS }).expect(200);
    });

    it("reads: the requestor and the owner side; the requestor's colleague, Data Viewers and BASIC members of the owner's organisation, strangers: 404", async () => {
      const expected = new Map<Person, number>([
        [colleague, 200],
        [owner, 200],
        [dataAdmin, 200],
        [requestor, 404],
        [dataViewer, 404],
        [basicSub, 404],
        [stranger, 404],
      ]);
      for (const [who, status] of expected) {
        for (const path of [`/api/requests/${id}`, `/api/requests/${id}/`]) {
          const response = await http().get(path).set(as(who));
          expect([who.username, response.status]).toEqual([who.username, status]);
          if (status === 404) expect(response.body).toEqual(NOT_FOUND);
        }
        const thread = await http().get('/api/request-messages').query({ request: id }).set(as(who));
        expect([who.username, thread.status]).toEqual([who.username, status]);
      }
      expect((await http().get(`/api/requests/${id}`)).status).toBe(401);
      for (const bad of [randomUUID(), 'nope']) expect((await http().get(`/api/requests/${bad}/`).set(as(owner))).status).toBe(404);
      const received = await http().get('/api/requests/received_requests/').set(as(dataAdmin));
      expect(received.body.results.map((r: { id: string }) => r.id)).toContain(id);
      expect((await http().get('/api/requests/received_requests/').set(as(dataViewer))).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('changes: those with no part get 404 for update, approve, deny, close and message, and nothing changes', async () => {
      const before = await state(id);
      for (const who of [requestor, dataViewer, basicSub, stranger]) {
        for (const status of ['new', 'review', 'approved', 'disapproved', 'closed']) {
          const response = await put(id, who, { status });
          expect([who.username, status, response.status]).toEqual([who.username, status, 404]);
        }
        const message = await http().post('/api/request-messages/').set(as(who)).send({ request: id, message: 'Let me in' });
        expect(message.status).toBe(400);
        expect(message.body).toEqual({ request: [`Invalid pk "${id}" - object does not exist.`] });
      }
      expect(await state(id)).toEqual(before);
    });
  });

  describe('messages', () => {
    let id: string;
    beforeAll(async () => {
      const requestId = (await open(stranger)).id;
      id = requestId;
    });

    it('not before the request is sent; empty or 100 kB messages are refused; both parties write, newest last; the other party is mailed', async () => {
      expect((await http().post('/api/request-messages/').set(as(stranger)).send({ request: id, message: 'Hi' })).body).toEqual({
        non_field_errors: ['Send the request before writing messages.'],
      });
      await put(id, stranger, { status: 'sent', access_policies: ANSWERS }).expect(200);
      const empty = await http().post('/api/request-messages/').set(as(stranger)).send({ request: id, message: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ message: ['This field may not be blank.'] });
      const huge = await http()
        .post('/api/request-messages/')
        .set(as(stranger))
        .send({ request: id, message: 'x'.repeat(100_000) });
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
      expect(Object.keys(huge.body)).toEqual([expect.stringMatching(/^(message|detail)$/)]);
      expect((await http().get('/api/request-messages/').query({ request: id }).set(as(stranger))).body).toEqual({
        count: 0,
        next: null,
        previous: null,
        results: [],
      });

      const first = await http().post('/api/request-messages').set(as(stranger)).send({ request: id, message: 'Can I get the 2023 data too?' });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ request: id, message: 'Can I get the 2023 data too?', user: 'rq-stranger', mine: true });
      await http().post('/api/request-messages/').set(as(owner)).send({ request: id, message: 'Only 2024, sorry.' }).expect(201);
      const thread = await http().get('/api/request-messages/').query({ request: id }).set(as(owner));
      expect(thread.body.results.map((m: { message: string; mine: boolean }) => [m.message, m.mine])).toEqual([
        ['Can I get the 2023 data too?', false],
        ['Only 2024, sorry.', true],
      ]);
      const toOwner = await service.mailsTo(id, owner.email);
      expect(toOwner.at(-1)!.values).toMatchObject({
        subject: 'New message about the data request for "Rainfall 2024"',
        paragraphs: ['rq-stranger wrote about the request for "Rainfall 2024":', 'Can I get the 2023 data too?'],
      });
      expect((await service.mailsTo(id, stranger.email)).at(-1)!.values.paragraphs[1]).toBe('Only 2024, sorry.');
      // The owner side's own message is not mailed back to its author.
      expect((await service.mailsTo(id, owner.email)).filter((m) => m.values.paragraphs[1] === 'Only 2024, sorry.')).toHaveLength(0);
      expect((await http().get('/api/request-messages/').set(as(owner))).body).toEqual({ request: ['This field is required.'] });
    });
  });

  describe('the audit trail', () => {
    it('holds every decision of the record, hash-chained, for its owner side only', async () => {
      const trail = await http().get('/api/requests/audit/').query({ record: record.recordId }).set(as(owner));
      expect(trail.status).toBe(200);
      const actions = trail.body.results.map((e: { action: string }) => e.action);
      expect(actions.slice(0, 7)).toEqual(['created', 'sent', 'review', 'approved', 'revoked', 'closed', 'created']);
      const approved = trail.body.results.find((e: { action: string }) => e.action === 'approved');
      expect(approved).toMatchObject({ actor: 'rq-owner', details: { expiresAt: '2999-12-31T23:59:59.999Z' } });
      expect(trail.body.results.find((e: { action: string }) => e.action === 'revoked').details).toEqual({ reason: 'The licence ended.' });
      for (const [i, entry] of trail.body.results.entries()) if (i > 0) expect(entry.seq).toBeGreaterThan(trail.body.results[i - 1].seq);
      for (const who of [dataViewer, requestor, stranger])
        expect((await http().get('/api/requests/audit').query({ record: record.recordId }).set(as(who))).status).toBe(404);
      expect((await http().get('/api/requests/audit/').query({ record: record.recordId }).set(as(dataAdmin))).status).toBe(200);
    });

    it('verification recomputes the chain and names the first entry edited in the database', async () => {
      const audit = service.app.get(AuditRepository);
      const manager = service.app.get(ServiceDatabase).dataSource.manager;
      const intact = await audit.verify(manager);
      expect(intact.broken).toBeNull();
      expect(intact.checked).toBeGreaterThanOrEqual(10);
      const [victim] = await service.sql<{ seq: string; id: string }>("SELECT seq, id FROM requests.audit_log WHERE action = 'approved'");
      await service.sql(`UPDATE requests.audit_log SET details = '{"expiresAt": "3999-12-31T23:59:59.999Z"}' WHERE id = $1`, [victim.id]);
      const tampered = await audit.verify(manager);
      expect(tampered.broken).toEqual({ seq: Number(victim.seq), id: victim.id, reason: 'its content does not match its hash (the entry was changed)' });
      expect(tampered.checked).toBe(Number(victim.seq) - 1);
    });
  });
});
