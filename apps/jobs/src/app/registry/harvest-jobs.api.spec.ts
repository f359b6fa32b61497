import { randomUUID } from 'node:crypto';
import { createEvent, JobCompleted, JobProgressed, JobStarted } from '@dc/contracts';
import { createTestDatabase, describeInfra, DocumentedAnswers, eventually, ServiceTestApp, testCaller, type TestDatabase } from '@dc/testing';
import { JobsModule } from '../jobs.module';

/**
 * HARVEST jobs (DCAT imports, run by the catalogue) in the registry on real PostgreSQL: registered
 * from job.started, moved on by job.progressed, ended by job.completed with the import's counts.
 */
describeInfra('jobs registry: HARVEST jobs from job.started (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const owner = testCaller('importer', randomUUID());
  const documented = new DocumentedAnswers();
  const post = (url: string, body: object) => documented.checking('post', url, service.request('post', url, owner).send(body));

  beforeAll(async () => {
    db = await createTestDatabase('dc_jobs_harvest');
    service = await ServiceTestApp.start({ service: 'jobs', modules: [JobsModule], databaseUrl: db.url });
  });

  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  const listed = async (jobId: string) => {
    const list = await post('/api/tasks/jobs-list/', { page_size: 100 });
    expect(list.status).toBe(200);
    return list.body.results.find((job: { job_id: string }) => job.job_id === jobId);
  };

  it('lists an import with its progress, then its counts and failures', async () => {
    const jobId = randomUUID();
    await service.publish(
      createEvent(JobStarted, jobId, {
        jobId,
        type: 'HARVEST',
        owner: { userId: owner.id, username: 'importer', organisationId: owner.organisationId, clientType: 'STANDARD', groups: [3] },
        info: 'Importing 3 datasets from https://data.example.org/catalog.ttl.',
        source: 'https://data.example.org/catalog.ttl',
        total: 3,
      }),
      createEvent(JobProgressed, jobId, { jobId, current: 2, total: 3 }),
    );
    const running = await eventually(async () => {
      const job = await listed(jobId);
      if (job?.progress.current !== 2) throw new Error('not progressed yet');
      return job;
    });
    expect(running).toMatchObject({
      type: 'HARVEST',
      is_active: true,
      progress: { current: 2, total: 3 },
      content: { source: 'https://data.example.org/catalog.ttl', harvest: null },
    });

    const harvest = {
      total: 3,
      created: 1,
      updated: 1,
      failed: 1,
      failures: [{ dataset: 'https://data.example.org/d/3', reason: 'name: This field may not be blank.' }],
    };
    await service.publish(
      createEvent(JobCompleted, jobId, {
        jobId,
        status: 'done',
        info: 'Imported 2 of 3 datasets from https://data.example.org/catalog.ttl: 1 created, 1 updated, 1 failed.',
        harvest,
      }),
    );
    const done = await eventually(async () => {
      const job = await listed(jobId);
      if (job?.is_active !== false) throw new Error('not completed yet');
      return job;
    });
    expect(done).toMatchObject({ failed: false, status: 'complete', progress: { current: 3, total: 3 }, content: { harvest } });
    const content = await post('/api/tasks/job-content/', { job: jobId });
    expect(content.body.content.harvest).toEqual(harvest);
  });
});
