import { randomUUID } from 'node:crypto';
import { createEvent, JobCompleted, JobProgressed, JobRequested, RecordDeleted } from '@dc/contracts';
import type { ClientType } from '@dc/platform';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, ServiceTestApp, testCaller, type TestCaller, type TestDatabase } from '@dc/testing';
import { JobsModule } from '../jobs.module';

/** A caller with every group, named after its id. */
const person = (organisationId: string, clientType: ClientType): TestCaller => {
  const who = testCaller('', organisationId, [1, 2, 3], clientType);
  return { ...who, username: who.id.slice(0, 8) };
};

/** The registry and /api/tasks on real PostgreSQL; job events arrive on the in-process bus as workers send them. */
describeInfra('jobs registry: /api/tasks (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const organisationId = randomUUID();
  const owner = person(organisationId, 'STANDARD');
  const colleague = person(organisationId, 'STANDARD');
  const basic = person(organisationId, 'BASIC');
  /** Every answer of this suite is also checked against docs/openapi.json (asserted last). */
  const documented = new DocumentedAnswers();
  const post = (url: string, who: TestCaller | null, body: object = {}) => documented.checking('post', url, service.request('post', url, who).send(body));

  const requested = (jobId: string, who: TestCaller, type: 'MERGE' | 'LINK' = 'MERGE', left = randomUUID()) =>
    createEvent(JobRequested, jobId, {
      jobId,
      type,
      owner: { userId: who.id, username: 'u', organisationId: who.organisationId, clientType: who.clientType, groups: [3] },
      info: `${type} of gdp.csv and population.csv`,
      left: { recordId: left, name: 'gdp.csv', fileId: randomUUID(), fileName: 'gdp.csv', storageKey: 'k/left' },
      right: { recordId: randomUUID(), name: 'population.csv', fileId: randomUUID(), fileName: 'population.csv', storageKey: 'k/right' },
      ...(type === 'MERGE' ? { merge: { mergeType: 'horizontal' as const, pairs: [{ left: 'Year', right: 'Year' }] } } : {}),
    });

  beforeAll(async () => {
    db = await createTestDatabase('dc_jobs_registry');
    service = await ServiceTestApp.start({ service: 'jobs', modules: [JobsModule], databaseUrl: db.url });
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it('lists a job from its request, moves its progress on, completes it, and answers every path with and without the slash', async () => {
    // A LINK job: no worker of this module takes it (the merge workers would run a MERGE job at once).
    const jobId = randomUUID();
    await service.publish(requested(jobId, owner, 'LINK'));
    const list = await post('/api/tasks/jobs-list/', owner);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results[0]).toMatchObject({
      job_id: jobId,
      type: 'LINK',
      progress: { current: 0, total: 1 },
      is_active: true,
      completed: null,
      content: { record_left_name: 'gdp.csv', record_right_name: 'population.csv', record_left_removed: false },
    });
    expect((await post('/api/tasks/jobs-list', owner, { active_flag: true })).body.count).toBe(1);

    await service.publish(createEvent(JobProgressed, jobId, { jobId, current: 3, total: 5 }));
    // A late, older progress report does not move it back.
    await service.publish(createEvent(JobProgressed, jobId, { jobId, current: 1, total: 5 }));
    expect((await post('/api/tasks/job-content', owner, { job: jobId })).body.progress).toEqual({ current: 3, total: 5 });

    const resultRecordId = randomUUID();
    await service.publish(createEvent(JobCompleted, jobId, { jobId, status: 'done', info: 'Merged 10 rows.', resultRecordId }));
    const content = await post('/api/tasks/job-content/', owner, { job: jobId });
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({
      job_id: jobId,
      is_active: false,
      status: 'complete',
      info: 'Merged 10 rows.',
      progress: { current: 5, total: 5 },
      content: { result_record_id: resultRecordId, matches: [] },
    });
    expect(content.body.completed).toEqual(expect.any(String));
    expect((await post('/api/tasks/jobs-list/', owner, { active_flag: 'true' })).body).toMatchObject({ count: 0, results: [], message: 'No jobs were found.' });

    // A redelivered request or progress report changes nothing once the job is complete.
    await service.publish(requested(jobId, owner, 'LINK'), createEvent(JobProgressed, jobId, { jobId, current: 1, total: 5 }));
    expect((await post('/api/tasks/job-content', owner, { job: jobId })).body).toMatchObject({ is_active: false, progress: { current: 5, total: 5 } });

    expect((await post('/api/tasks/job-delete', owner, { job: jobId })).body).toEqual({ detail: 'Job deleted.' });
    expect((await post('/api/tasks/job-delete/', owner, { job: jobId })).status).toBe(404);
    expect((await post('/api/tasks/job-content/', owner, { job: jobId })).status).toBe(404);
  });

  it('shows, reads and deletes a job for its owner only: not another user, a BASIC client of the same organisation, or anonymous callers', async () => {
    const jobId = randomUUID();
    await service.publish(requested(jobId, owner, 'LINK'));
    for (const other of [colleague, basic]) {
      expect((await post('/api/tasks/jobs-list/', other)).body.results.map((j: { job_id: string }) => j.job_id)).not.toContain(jobId);
      const read = await post('/api/tasks/job-content/', other, { job: jobId });
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ detail: 'Not found.' });
      expect((await post('/api/tasks/job-delete/', other, { job: jobId })).body).toEqual({ detail: 'Job delete failed.' });
    }
    for (const url of ['/api/tasks/jobs-list/', '/api/tasks/job-content/', '/api/tasks/job-delete', '/api/tasks/jobs-list']) {
      expect((await post(url, null, { job: jobId })).status).toBe(401);
    }
    expect((await post('/api/tasks/job-content/', owner, { job: jobId })).status).toBe(200);
    // A BASIC client sees its own jobs.
    const basicJob = randomUUID();
    await service.publish(requested(basicJob, basic, 'LINK'));
    expect((await post('/api/tasks/jobs-list/', basic)).body.results.map((j: { job_id: string }) => j.job_id)).toEqual([basicJob]);
  });

  it('refuses bad input with field errors, and says when a source record was removed', async () => {
    expect((await post('/api/tasks/job-content/', owner, {})).body).toEqual({ job: ['This field is required.'] });
    expect((await post('/api/tasks/job-delete/', owner, { job: ['x'] })).status).toBe(400);
    expect((await post('/api/tasks/job-content/', owner, { job: 'x'.repeat(500) })).status).toBe(400);
    expect((await post('/api/tasks/jobs-list/', owner, { page: 'nonsense', page_size: -3 })).status).toBe(200);

    const jobId = randomUUID();
    const left = randomUUID();
    await service.publish(requested(jobId, owner, 'LINK', left), createEvent(RecordDeleted, left, { recordId: left, ownerId: owner.id, organisationId }));
    await eventually(async () =>
      expect((await post('/api/tasks/job-content/', owner, { job: jobId })).body.content).toMatchObject({
        record_left_removed: true,
        record_right_removed: false,
      }),
    );
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
