import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  createEvent,
  DATA_ADMIN,
  DATA_VIEWER,
  JobCompleted,
  JobRequested,
  RecordCreated,
  RecordDeleted,
  RecordUpdated,
  RequestCreated,
  RequestMessagePosted,
} from '@dc/contracts';
import {
  createTestDatabase,
  describeInfra,
  DocumentedAnswers,
  eventually,
  ServiceTestApp,
  testCaller,
  testRecordSnapshot,
  type TestCaller,
  type TestDatabase,
  WebhookReceiver,
} from '@dc/testing';
import { JobsModule } from '../jobs.module';

/** A person of the organisation with these groups, named after their id. */
const person = (organisationId: string, groups: number[]): TestCaller => {
  const who = testCaller('', organisationId, groups);
  return { ...who, username: who.id.slice(0, 8) };
};

/**
 * Signed webhooks on real PostgreSQL with a real HTTP receiver on a loopback port: deliveries are
 * checked with the independent `standardwebhooks` implementation. Delays are configuration (a
 * 200 ms back-off, three attempts), and the tests wait for what the receiver and the delivery log show.
 */
describeInfra('webhooks: /api/webhooks, the delivery outbox and its sender (real PostgreSQL, real HTTP receiver)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  let receiver: WebhookReceiver;
  const organisationA = randomUUID();
  const organisationB = randomUUID();
  const adminA = person(organisationA, [DATA_ADMIN]);
  const viewerA = person(organisationA, [DATA_VIEWER]);
  const adminB = person(organisationB, [DATA_ADMIN]);
  const documented = new DocumentedAnswers();
  const call = (method: 'get' | 'post' | 'patch' | 'delete', url: string, who: TestCaller | null, body?: object) =>
    documented.checking(method, url, body === undefined ? service.request(method, url, who) : service.request(method, url, who).send(body));

  /** Registers an endpoint at the receiver's path; answers its id and secret. */
  const register = async (who: TestCaller, path: string, eventTypes: string[]) => {
    const answer = await call('post', '/api/webhooks/', who, { url: receiver.url(path), event_types: eventTypes, description: path });
    expect(answer.status).toBe(201);
    return answer.body as { id: string; secret: string };
  };
  /** The envelope delivered, verified with the endpoint's secret by the standardwebhooks package (throws when the signature is wrong). */
  const verified = (secret: string, delivery: { headers: Record<string, string>; body: string }) =>
    new Webhook(secret).verify(delivery.body, delivery.headers) as { id: string; type: string; payload: Record<string, unknown> };
  const log = async (who: TestCaller, endpointId: string) =>
    (await call('get', `/api/webhooks/${endpointId}/deliveries/`, who)).body.results as Array<Record<string, unknown>>;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    db = await createTestDatabase('dc_jobs_webhooks');
    service = await ServiceTestApp.start({
      service: 'jobs',
      modules: [JobsModule],
      databaseUrl: db.url,
      env: {
        ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_RETRY_MAX_MS: '400',
        WEBHOOK_MAX_ATTEMPTS: '3',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_ATTEMPT_TIMEOUT_MS: '3000',
      },
    });
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
    await receiver?.stop();
  });

  it('lets Data Admins alone register endpoints, shows the secret once, checks the URL and keeps organisations apart', async () => {
    expect((await call('get', '/api/webhooks/', null)).status).toBe(401);
    const refused = await call('get', '/api/webhooks/', viewerA);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Only Data Admins of your organisation manage its webhooks.' });

    const created = await register(adminA, '/rules', ['record.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await call('get', '/api/webhooks/', adminA);
    expect(list.body.results).toEqual([
      expect.objectContaining({ id: created.id, url: receiver.url('/rules'), event_types: ['record.created'], active: true }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    // The secret is stored sealed, not as given.
    const [stored] = await service.sql<{ secret_sealed: string }>('SELECT secret_sealed FROM jobs.webhook_endpoints WHERE id = $1', [created.id]);
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(created.secret.slice(6));

    // Another organisation's Data Admin sees neither the endpoint nor its log.
    expect((await call('get', '/api/webhooks/', adminB)).body.results).toEqual([]);
    expect((await call('get', `/api/webhooks/${created.id}/deliveries/`, adminB)).status).toBe(404);
    expect((await call('patch', `/api/webhooks/${created.id}/`, adminB, { active: false })).status).toBe(404);
    expect((await call('delete', `/api/webhooks/${created.id}/`, adminB)).status).toBe(404);

    // The URL: its shape, the address guard (10.0.0.0/8 is not allowed here), the event types.
    expect((await call('post', '/api/webhooks/', adminA, { url: 'ftp://example.org/x', event_types: ['record.created'] })).body).toEqual({
      url: ['The URL must start with https:// or http://.'],
    });
    const guarded = await call('post', '/api/webhooks/', adminA, { url: 'http://10.1.2.3/hook', event_types: ['record.created'] });
    expect(guarded.status).toBe(400);
    expect(guarded.body.url[0]).toContain('ALLOWED_PRIVATE_ENDPOINTS');
    const noTypes = await call('post', '/api/webhooks/', adminA, { url: receiver.url('/x'), event_types: [] });
    expect(noTypes.status).toBe(400);
    expect(noTypes.body).toEqual({ event_types: ['Choose at least one event type.'] });
    expect((await call('post', '/api/webhooks/', adminA, { url: receiver.url('/x'), event_types: ['user.registered'] })).status).toBe(400);

    // A new secret replaces the old one, shown once again.
    const rotated = await call('post', `/api/webhooks/${created.id}/rotate-secret/`, adminA);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect((await call('delete', `/api/webhooks/${created.id}/`, adminA)).status).toBe(204);
    expect((await call('get', '/api/webhooks/', adminA)).body.results).toEqual([]);
  });

  it("delivers the organisation's own events signed (verified by standardwebhooks), and never another organisation's", async () => {
    const a = await register(adminA, '/a', ['record.created', 'record.deleted']);
    const b = await register(adminB, '/b', ['record.created']);
    const recordA = testRecordSnapshot({ id: adminA.id, username: adminA.username, organisationId: organisationA }, { name: 'Rainfall A' });
    const recordB = testRecordSnapshot({ id: adminB.id, username: adminB.username, organisationId: organisationB }, { name: 'Secret B' });
    const createdA = createEvent(RecordCreated, recordA.recordId, recordA);
    const createdB = createEvent(RecordCreated, recordB.recordId, recordB);
    await service.publish(createdB, createdA);
    // The same event again (a redelivery) adds no second delivery.
    await service.publish(createdA);
    await service.publish(createEvent(RecordDeleted, recordA.recordId, { recordId: recordA.recordId, ownerId: adminA.id, organisationId: organisationA }));

    await eventually(async () => expect(receiver.on('/a')).toHaveLength(2));
    await eventually(async () => expect(receiver.on('/b')).toHaveLength(1));
    const [first, second] = receiver.on('/a').map((d) => verified(a.secret, d));
    expect(first).toEqual({ id: createdA.id, type: 'record.created', version: 1, occurredAt: createdA.occurredAt, key: recordA.recordId, payload: recordA });
    expect(receiver.on('/a')[0].headers['webhook-id']).toBe(createdA.id);
    expect(receiver.on('/a')[0].headers['content-type']).toBe('application/json');
    expect(second).toMatchObject({ type: 'record.deleted', payload: { recordId: recordA.recordId } });
    expect(verified(b.secret, receiver.on('/b')[0])).toMatchObject({ id: createdB.id, payload: { name: 'Secret B' } });
    // Signed with another endpoint's secret, a delivery does not verify.
    expect(() => verified(b.secret, receiver.on('/a')[0])).toThrow();
    expect(receiver.on('/a').some((d) => d.body.includes('Secret B'))).toBe(false);

    const entries = await log(adminA, a.id);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.status === 'delivered' && e.attempts === 1 && e.last_status_code === 200)).toBe(true);
    await call('delete', `/api/webhooks/${a.id}/`, adminA);
    await call('delete', `/api/webhooks/${b.id}/`, adminB);
  });

  it('tries a failing endpoint again with back-off (same webhook-id), then dead-letters it; a dead letter can be sent again', async () => {
    receiver.behaviour = (path, earlier) => (path === '/flaky' ? (earlier.length < 2 ? 500 : 200) : path === '/down' ? 503 : 200);
    const flaky = await register(adminA, '/flaky', ['record.created']);
    const down = await register(adminA, '/down', ['record.created']);
    const record = testRecordSnapshot({ id: adminA.id, username: adminA.username, organisationId: organisationA });
    const event = createEvent(RecordCreated, record.recordId, record);
    await service.publish(event);

    await eventually(async () => expect((await log(adminA, flaky.id))[0]).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 }));
    expect(receiver.on('/flaky').map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(receiver.on('/flaky').map((d) => d.headers['webhook-id']))).toEqual(new Set([event.id]));
    for (const delivery of receiver.on('/flaky')) expect(verified(flaky.secret, delivery)).toMatchObject({ id: event.id });

    const dead = await eventually(async () => {
      const [entry] = await log(adminA, down.id);
      expect(entry).toMatchObject({ status: 'dead', attempts: 3, last_status_code: 503, last_error: 'The endpoint answered 503.', next_attempt: null });
      return entry;
    });
    expect(receiver.on('/down')).toHaveLength(3);
    // Sending a delivery that is not dead is refused.
    const notDead = await call('post', `/api/webhooks/${flaky.id}/deliveries/${(await log(adminA, flaky.id))[0].id}/resend/`, adminA);
    expect(notDead.status).toBe(400);
    expect(notDead.body).toEqual({ detail: 'Only a dead-lettered delivery can be sent again.' });

    receiver.behaviour = () => 200;
    const resent = await call('post', `/api/webhooks/${down.id}/deliveries/${String(dead.id)}/resend/`, adminA);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ status: 'pending', attempts: 0 });
    await eventually(async () => expect((await log(adminA, down.id))[0]).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 }));
    expect(receiver.on('/down')).toHaveLength(4);
    await call('delete', `/api/webhooks/${flaky.id}/`, adminA);
    await call('delete', `/api/webhooks/${down.id}/`, adminA);
  });

  it('keeps sending to other endpoints while one does not answer, and gives that one a time limit', async () => {
    receiver.behaviour = (path) => (path === '/slow' ? 'hang' : 200);
    const slow = await register(adminA, '/slow', ['record.updated']);
    const fast = await register(adminA, '/fast', ['record.updated']);
    const record = testRecordSnapshot({ id: adminA.id, username: adminA.username, organisationId: organisationA });
    await service.publish(createEvent(RecordUpdated, record.recordId, record));
    await eventually(async () => expect(receiver.on('/slow')).toHaveLength(1));
    await eventually(async () => expect((await log(adminA, fast.id))[0]).toMatchObject({ status: 'delivered' }));
    expect((await log(adminA, slow.id))[0]).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    // The attempt ends at its time limit (3 s here) and is tried again.
    await eventually(async () => expect((await log(adminA, slow.id))[0]).toMatchObject({ status: 'pending', last_error: 'No answer within 3 s.' }), 15_000);
    receiver.behaviour = () => 200;
    await call('delete', `/api/webhooks/${slow.id}/`, adminA);
    await call('delete', `/api/webhooks/${fast.id}/`, adminA);
  });

  it("tells both parties of a request of its messages, a job's owner organisation of its end, and sends test events", async () => {
    const owner = await register(adminA, '/owner', ['request.created', 'request.message-posted', 'job.completed']);
    const requestor = await register(adminB, '/requestor', ['request.message-posted']);
    const bystanderAdmin = person(randomUUID(), [DATA_ADMIN]);
    const bystander = await register(bystanderAdmin, '/bystander', ['request.created', 'request.message-posted', 'job.completed']);
    const requestId = randomUUID();
    const recordId = randomUUID();
    const now = new Date().toISOString();
    const request = createEvent(RequestCreated, requestId, {
      requestId,
      recordId,
      requestorId: adminB.id,
      requestorOrganisationId: organisationB,
      ownerId: adminA.id,
      organisationId: organisationA,
      status: 'new',
      expiresAt: null,
      createdAt: now,
      changedAt: now,
      version: 1,
    });
    await service.publish(request);
    const message = createEvent(RequestMessagePosted, requestId, { requestId, messageId: randomUUID(), recordId, authorId: adminB.id, createdAt: now });
    await service.publish(message);
    const jobId = randomUUID();
    await service.publish(
      createEvent(JobRequested, jobId, {
        jobId,
        type: 'LINK',
        owner: { userId: adminA.id, username: 'a', organisationId: organisationA, clientType: 'STANDARD', groups: [DATA_ADMIN] },
        info: 'LINK of gdp.csv and population.csv',
        left: { recordId: randomUUID(), name: 'gdp.csv', fileId: randomUUID(), fileName: 'gdp.csv', storageKey: 'k/left' },
        right: { recordId: randomUUID(), name: 'population.csv', fileId: randomUUID(), fileName: 'population.csv', storageKey: 'k/right' },
      }),
    );
    const completed = createEvent(JobCompleted, jobId, { jobId, status: 'done', info: 'Linked.' });
    await service.publish(completed);

    await eventually(async () => expect(receiver.on('/owner')).toHaveLength(3));
    expect(receiver.on('/owner').map((d) => verified(owner.secret, d).type)).toEqual(['request.created', 'request.message-posted', 'job.completed']);
    await eventually(async () => expect(receiver.on('/requestor')).toHaveLength(1));
    expect(verified(requestor.secret, receiver.on('/requestor')[0])).toMatchObject({ id: message.id, payload: { requestId } });

    // "Send test event": queued, sent in the background, its outcome in the log.
    // None of it concerns the bystander's organisation.
    expect(receiver.on('/bystander')).toEqual([]);
    const test = await call('post', `/api/webhooks/${bystander.id}/test/`, bystanderAdmin);
    expect(test.status).toBe(202);
    await eventually(async () => expect(receiver.on('/bystander')).toHaveLength(1));
    expect(verified(bystander.secret, receiver.on('/bystander')[0])).toMatchObject({ type: 'webhook.test', key: bystander.id });
    expect(documented.mismatches).toEqual([]);
  });
});
