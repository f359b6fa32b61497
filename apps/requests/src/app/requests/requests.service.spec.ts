import { randomUUID } from 'node:crypto';
import { ACCESS_ADMIN, DATA_ADMIN, DATA_VIEWER } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import { authUser, refusal, testCaller } from '@dc/testing';
import type { AuditRepository } from '../audit/audit.repository';
import type { DirectoryRepository } from '../directory/directory.repository';
import type { KnownRecord, RecordsRepository } from '../records/records.repository';
import type { UpdateRequestDto } from './dto/request.dto';
import { FakeAudit, FakeDirectory, FakeMessages, FakeRecords, FakeRequests } from './fake-repositories.fixture';
import type { MessagesRepository } from './messages.repository';
import { ANSWER_EVERYTHING, CLOSED_FOR_GOOD, OPEN_RECORD, ORGANISATION_RECORD, OWN_RECORD } from './request-rules';
import type { RequestsRepository } from './requests.repository';
import { ALREADY_REQUESTED, READ_ONLY, REASON_REQUIRED, RequestsService } from './requests.service';

const orgA = randomUUID();
const orgB = randomUUID();
const orgC = randomUUID();
const user = (username: string, organisationId: string, groups: number[]): AuthUser => authUser(testCaller(username, organisationId, groups));
const owner = user('owner', orgA, [DATA_VIEWER]);
const dataAdmin = user('admin', orgA, [DATA_ADMIN]);
const viewer = user('viewer', orgA, [DATA_VIEWER]);
const requestor = user('requestor', orgB, [DATA_VIEWER]);
const colleague = user('colleague', orgB, [DATA_VIEWER]);
const stranger = user('stranger', orgC, [ACCESS_ADMIN, DATA_ADMIN, DATA_VIEWER]);
const everyone = [owner, dataAdmin, viewer, requestor, colleague, stranger];

const policyId = randomUUID();
const ANSWERS = [
  {
    id: policyId,
    json_content: [
      { object: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' as const },
      { object: 'Resale', requirement: 'You will sell the data', agree: 'no' as const },
    ],
  },
];
const NOT_FOUND = { status: 404, body: { detail: 'Not found.' } };
const FORBIDDEN = { status: 403, body: { detail: 'You do not have permission to perform this action.' } };

describe('RequestsService on in-memory repositories: states, transitions, who may do what', () => {
  let records: FakeRecords;
  let directory: FakeDirectory;
  let requests: FakeRequests;
  let audit: FakeAudit;
  let messages: FakeMessages;
  let service: RequestsService;

  const record = (overrides: Partial<KnownRecord> = {}): KnownRecord => {
    const known: KnownRecord = {
      id: randomUUID(),
      name: 'Rainfall 2024',
      ownerId: owner.id,
      organisationId: orgA,
      policyId,
      access: 'RE',
      visibility: 'EV',
      sharedUserIds: [],
      sharedOrganisationIds: [],
      ownerOnly: false,
      deleted: false,
      ...overrides,
    };
    records.stored.set(known.id, known);
    return known;
  };
  const open = async (who: AuthUser, recordId: string) => {
    const { body } = await service.create(who, { record: recordId, status: 'new' });
    return 'request' in body ? body.request : body;
  };
  const put = (id: string, who: AuthUser, dto: Partial<UpdateRequestDto> & Pick<UpdateRequestDto, 'status'>) => service.update(id, who, dto);
  const mailsTo = (who: AuthUser) =>
    requests.published.filter((e) => e.type === 'mail.requested' && (e.payload as { to: string }).to === `${who.username}@example.org`);
  const typesOf = (id: string) => requests.published.filter((e) => e.key === id).map((e) => e.type);

  beforeEach(() => {
    records = new FakeRecords();
    directory = new FakeDirectory();
    requests = new FakeRequests(records);
    audit = new FakeAudit();
    messages = new FakeMessages();
    service = new RequestsService(
      requests as unknown as RequestsRepository,
      records as unknown as RecordsRepository,
      directory as unknown as DirectoryRepository,
      audit as unknown as AuditRepository,
      messages as unknown as MessagesRepository,
    );
    for (const { id, username, organisationId, groups } of everyone) {
      directory.people.set(id, {
        id,
        username,
        organisationId,
        groups,
        email: `${username}@example.org`,
        firstName: '',
        lastName: '',
        active: true,
        deleted: false,
      });
    }
    directory.orgs.set(orgB, { id: orgB, name: 'Blue', description: 'Marine research' });
    records.policies.set(policyId, {
      id: policyId,
      organisationId: orgA,
      name: 'Research only',
      version: 1,
      deleted: false,
      fields: [
        { topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' },
        { topic: 'Resale', requirement: 'You will sell the data', agree: 'no' },
      ],
    });
  });

  describe('opening a request', () => {
    it("starts new, with the record's policy unanswered, a request.created event and an audit entry; a second one answers with the open request", async () => {
      const known = record();
      const created = await service.create(requestor, { record: known.id.toUpperCase(), status: 'new', purpose: 'Flood study' });
      expect(created.created).toBe(true);
      const view = created.body as Awaited<ReturnType<RequestsService['get']>>;
      expect(view).toMatchObject({
        record: known.id,
        status: 'new',
        purpose: 'Flood study',
        requestor: 'requestor',
        requestor_org_name: 'Blue',
        data_admin: 'owner',
        role: 'requestor',
        access_policies: [
          { id: policyId, name: 'Research only', json_content: [expect.objectContaining({ agree: '' }), expect.objectContaining({ agree: '' })] },
        ],
      });
      expect(typesOf(view.id)).toEqual(['request.created']);
      expect(audit.entries.map((e) => [e.action, e.actorId])).toEqual([['created', requestor.id]]);

      const again = await service.create(requestor, { record: known.id, status: 'new' });
      expect(again).toEqual({ created: false, body: { message: ALREADY_REQUESTED, request: expect.objectContaining({ id: view.id }) } });
      expect(requests.rows.size).toBe(1);
      expect(typesOf(view.id)).toEqual(['request.created']);
    });

    it('refuses in the record field what does not exist, is deleted or hidden, is owned by the caller or their organisation, or is open', async () => {
      const unknown = randomUUID();
      const cases: Array<[AuthUser, string, string]> = [
        [requestor, unknown, `Invalid pk "${unknown}" - object does not exist.`],
        [requestor, 'not-a-uuid', 'Invalid pk "not-a-uuid" - object does not exist.'],
        [requestor, record({ deleted: true }).id, 'deleted'],
        [requestor, record({ visibility: 'PR' }).id, 'hidden'],
        [owner, record().id, OWN_RECORD],
        [dataAdmin, record().id, ORGANISATION_RECORD],
        [requestor, record({ access: 'OP' }).id, OPEN_RECORD],
      ];
      for (const [who, recordId, message] of cases) {
        const expected = message === 'deleted' || message === 'hidden' ? `Invalid pk "${recordId}" - object does not exist.` : message;
        expect(await refusal(service.create(who, { record: recordId, status: 'new' }))).toEqual({ status: 400, body: { record: [expected] } });
      }
      expect(requests.rows.size).toBe(0);
      expect(requests.published).toEqual([]);
      expect(audit.entries).toEqual([]);
    });
  });

  describe('the status machine', () => {
    let known: KnownRecord;
    let id: string;
    beforeEach(async () => {
      known = record();
      id = (await open(requestor, known.id)).id;
    });

    it('while new the requestor edits; sending needs every requirement answered; sent mails the owner side and freezes the content', async () => {
      expect(await refusal(put(id, requestor, { status: 'sent' }))).toEqual({ status: 400, body: { access_policies: [ANSWER_EVERYTHING] } });
      expect(requests.rows.get(id)).toMatchObject({ status: 'new', version: 1 });

      expect(await put(id, requestor, { status: 'new', purpose: 'Flood study', note: 'For a thesis' })).toMatchObject({
        status: 'new',
        purpose: 'Flood study',
      });
      const sent = await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect(sent).toMatchObject({ status: 'sent', sent: expect.any(String), note: 'For a thesis' });
      expect(sent.access_policies[0].json_content.map((i) => i.agree)).toEqual(['yes', 'no']);
      expect(requests.rows.get(id)).toMatchObject({ status: 'sent', version: 3 });
      expect(mailsTo(owner)).toHaveLength(1);
      expect(mailsTo(dataAdmin)).toHaveLength(1);
      expect(mailsTo(viewer)).toHaveLength(0);
      expect(audit.entries.map((e) => e.action)).toEqual(['created', 'sent']);

      expect(await refusal(put(id, requestor, { status: 'closed', purpose: 'Something else' }))).toEqual({
        status: 400,
        body: { non_field_errors: [READ_ONLY] },
      });
      expect(await refusal(put(id, requestor, { status: 'sent' }))).toEqual({
        status: 400,
        body: { status: ['A request in status sent cannot become sent.'] },
      });
      // The same content sent back is no change.
      expect(await put(id, dataAdmin, { status: 'review', purpose: 'Flood study', note: 'For a thesis', access_policies: ANSWERS })).toMatchObject({
        status: 'review',
        role: 'reviewer',
      });
    });

    it('the owner side reviews, then approves with an expiry or denies; the requestor may not decide and the owner side may not skip review', async () => {
      await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect(await refusal(put(id, requestor, { status: 'approved' }))).toEqual(FORBIDDEN);
      expect(await refusal(put(id, owner, { status: 'approved' }))).toEqual({
        status: 400,
        body: { status: ['A request in status sent cannot become approved.'] },
      });
      expect(await refusal(put(id, owner, { status: 'closed' }))).toEqual(FORBIDDEN);
      await put(id, owner, { status: 'review' });

      expect(await refusal(put(id, owner, { status: 'approved', expires_at: '2001-01-01' }))).toEqual({
        status: 400,
        body: { expires_at: ['The expiry must be in the future.'] },
      });
      expect(await refusal(put(id, owner, { status: 'disapproved', expires_at: '2999-01-01' }))).toEqual({
        status: 400,
        body: { expires_at: ['Only an approval takes an expiry.'] },
      });
      const approved = await put(id, owner, { status: 'approved', expires_at: '2999-12-31' });
      expect(approved).toMatchObject({ status: 'approved', expires_at: '2999-12-31T23:59:59.999Z', expired: false, decided_by: 'owner' });
      expect(await refusal(put(id, dataAdmin, { status: 'disapproved' }))).toEqual({
        status: 400,
        body: { status: ['A request in status approved cannot become disapproved.'] },
      });
      expect((mailsTo(requestor)[0].payload as { values: { subject: string } }).values.subject).toBe('Your data request for "Rainfall 2024" was approved');
      expect(audit.entries.map((e) => [e.action, e.details])).toEqual([
        ['created', {}],
        ['sent', {}],
        ['review', {}],
        ['approved', { expiresAt: '2999-12-31T23:59:59.999Z' }],
      ]);
    });

    it('revoking an approval needs a reason, which lands in the thread; only a revocation takes one', async () => {
      await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect(await refusal(put(id, owner, { status: 'review', reason: 'Why not' }))).toEqual({
        status: 400,
        body: { reason: ['Only revoking an approval takes a reason.'] },
      });
      await put(id, owner, { status: 'review' });
      await put(id, owner, { status: 'approved' });
      expect(await refusal(put(id, owner, { status: 'revoked' }))).toEqual({ status: 400, body: { reason: [REASON_REQUIRED] } });
      expect(messages.messages).toEqual([]);

      const revoked = await put(id, dataAdmin, { status: 'revoked', reason: 'The licence ended.' });
      expect(revoked).toMatchObject({ status: 'revoked', revoke_reason: 'The licence ended.', revoked_at: expect.any(String) });
      expect(messages.messages).toEqual([expect.objectContaining({ requestId: id, userId: dataAdmin.id, message: 'Access revoked: The licence ended.' })]);
      expect(audit.entries.at(-1)).toMatchObject({ action: 'revoked', actorId: dataAdmin.id, details: { reason: 'The licence ended.' } });
    });

    it('a closed request is gone from the lists and nothing reopens it; a new request for the record may start', async () => {
      await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect((await put(id, requestor, { status: 'closed' })).status).toBe('closed');
      for (const [who, status] of [
        [requestor, 'new'],
        [requestor, 'sent'],
        [owner, 'review'],
      ] as const) {
        expect(await refusal(put(id, who, { status }))).toEqual({ status: 400, body: { status: [CLOSED_FOR_GOOD] } });
      }
      expect((await service.sent(requestor, {})).count).toBe(0);
      expect((await service.received(owner, {})).count).toBe(0);
      const fresh = await service.create(requestor, { record: known.id });
      expect(fresh.created).toBe(true);
      expect((fresh.body as { id: string }).id).not.toBe(id);
    });

    it('a PUT that changes nothing publishes nothing and keeps the version', async () => {
      const before = requests.published.length;
      await put(id, requestor, { status: 'new' });
      expect(requests.published).toHaveLength(before);
      expect(requests.rows.get(id)!.version).toBe(1);
    });
  });

  describe('who may do what', () => {
    let id: string;
    beforeEach(async () => {
      id = (await open(requestor, record().id)).id;
    });

    it("a draft is the requestor's alone: the owner side, colleagues and strangers get 404, for reading and for changing", async () => {
      for (const who of [owner, dataAdmin, viewer, colleague, stranger]) {
        expect(await refusal(service.get(id, who))).toEqual(NOT_FOUND);
        expect(await refusal(put(id, who, { status: 'review' }))).toEqual(NOT_FOUND);
      }
      expect(await service.get(id, requestor)).toMatchObject({ id, role: 'requestor' });
      expect(await refusal(service.get('not-a-uuid', requestor))).toEqual(NOT_FOUND);
      expect(await refusal(service.get(randomUUID(), requestor))).toEqual(NOT_FOUND);
    });

    it("once sent: the owner and the organisation's Data Admins review it; its Data Viewers, the requestor's colleagues and strangers still get 404", async () => {
      await put(id, requestor, { status: 'sent', access_policies: ANSWERS });
      expect(await service.get(id, owner)).toMatchObject({ role: 'reviewer' });
      expect(await service.get(id.toUpperCase(), dataAdmin)).toMatchObject({ id, role: 'reviewer' });
      for (const who of [viewer, colleague, stranger]) {
        expect(await refusal(service.get(id, who))).toEqual(NOT_FOUND);
        expect(await refusal(put(id, who, { status: 'closed' }))).toEqual(NOT_FOUND);
      }
      expect(requests.rows.get(id)!.status).toBe('sent');
      expect((await service.received(dataAdmin, {})).results.map((r) => r.id)).toEqual([id]);
      expect((await service.received(viewer, {})).count).toBe(0);
    });

    it("the audit trail is the owner side's: others get 404, and the record is required", async () => {
      const recordId = requests.rows.get(id)!.recordId;
      expect((await service.trail(owner, recordId, {})).results.map((e) => e.action)).toEqual(['created']);
      expect((await service.trail(dataAdmin, recordId, {})).count).toBe(1);
      for (const who of [viewer, requestor, stranger]) expect(await refusal(service.trail(who, recordId, {}))).toEqual(NOT_FOUND);
      // trail refuses a missing record before it returns a promise.
      expect(await refusal(Promise.resolve().then(() => service.trail(owner, undefined, {})))).toEqual({
        status: 400,
        body: { record: ['This field is required.'] },
      });
    });
  });

  it('lists are paged with links to the next and previous pages', async () => {
    for (let n = 0; n < 3; n++) await put((await open(requestor, record().id)).id, requestor, { status: 'sent', access_policies: ANSWERS });
    const first = await service.sent(requestor, { page_size: '2' });
    expect(first).toMatchObject({ count: 3, next: '?page=2', previous: null });
    expect(first.results).toHaveLength(2);
    const second = await service.received(owner, { page: '2', page_size: '2' });
    expect(second).toMatchObject({ count: 3, next: null, previous: '?page=1' });
    expect(second.results).toHaveLength(1);
  });
});
