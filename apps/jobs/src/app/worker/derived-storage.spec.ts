import { randomUUID } from 'node:crypto';
import { createEvent, JobCompleted, JobRequested, RecordDeleted } from '@dc/contracts';
import { createTestDatabase, describeInfra, eventually, ServiceTestApp, type TestDatabase } from '@dc/testing';
import { JobsModule } from '../jobs.module';
import { DerivedStorageRepository } from './derived-storage.repository';
import { JobRunsRepository } from './job-runs.repository';

const QUOTA = 1000;

/**
 * The quota on merged records in the jobs service (real PostgreSQL, the jobs module alone): the
 * check before a merge starts, the check in the transaction that finishes it, and record.deleted.
 */
describeInfra("merge quota: the jobs schema's count of merged bytes (real PostgreSQL)", true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const owner = randomUUID();
  const organisationId = randomUUID();

  const used = async () => Number((await service.sql('SELECT coalesce(sum(bytes), 0) AS used FROM jobs.derived_storage WHERE owner_id = $1', [owner]))[0].used);
  const finished = async (jobId: string) => (await service.sql('SELECT 1 FROM jobs.finished_runs WHERE job_id = $1', [jobId])).length === 1;
  const outboxed = async (jobId: string) => (await service.sql('SELECT 1 FROM jobs.outbox_events WHERE key = $1', [jobId])).length;
  const finish = (jobId: string, bytes: number) => {
    const charge = { ownerId: owner, jobId, recordId: `record-of-${jobId}`, bytes, quotaBytes: QUOTA };
    const done = createEvent(JobCompleted, jobId, { jobId, status: 'done', info: 'Merged.', resultRecordId: charge.recordId });
    return service.get(JobRunsRepository).finishAdmitted(jobId, (manager) => service.get(DerivedStorageRepository).charge(manager, charge), done);
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_jobs_quota');
    service = await ServiceTestApp.start({
      service: 'jobs',
      name: 'jobs-quota',
      modules: [JobsModule],
      databaseUrl: db.url,
      env: { DERIVED_STORAGE_QUOTA_BYTES: String(QUOTA) },
    });
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it("counts a finished merge's bytes once, refuses the finish of a merge that would pass the quota (writing nothing), and forgets a deleted record's bytes", async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    expect(await finish(first, 600)).toBe(true);
    expect(await used()).toBe(600);
    // Run again (a redelivery after it finished): nothing more is counted.
    expect(await finish(first, 600)).toBe(true);
    expect(await used()).toBe(600);
    expect(await outboxed(first)).toBe(1);

    // Another merge of the owner's finishing after the first: 600 + 600 > 1000, so it is not finished at all.
    expect(await finish(second, 600)).toBe(false);
    expect({ finished: await finished(second), outboxed: await outboxed(second), used: await used() }).toEqual({ finished: false, outboxed: 0, used: 600 });

    await service.publish(createEvent(RecordDeleted, `record-of-${first}`, { recordId: `record-of-${first}`, ownerId: owner, organisationId }));
    await eventually(async () => expect(await used()).toBe(0));
    expect(await finish(second, 600)).toBe(true);
    expect(await used()).toBe(600);
    await service.sql('DELETE FROM jobs.derived_storage WHERE owner_id = $1', [owner]);
  });

  it('fails the merge of an owner whose quota is full before it reads either source, naming the quota', async () => {
    await service.sql('INSERT INTO jobs.derived_storage (record_id, job_id, owner_id, bytes, stored_at) VALUES ($1, $2, $3, $4, now())', [
      randomUUID(),
      randomUUID(),
      owner,
      QUOTA,
    ]);
    const jobId = randomUUID();
    // Keys of objects that do not exist: a merge that read them would fail as "removed from the product".
    await service.publish(
      createEvent(JobRequested, jobId, {
        jobId,
        type: 'MERGE',
        owner: { userId: owner, username: 'owner', organisationId, clientType: 'STANDARD', groups: [3] },
        info: 'MERGE of a.csv and b.csv',
        left: { recordId: randomUUID(), name: 'a.csv', fileId: randomUUID(), fileName: 'a.csv', storageKey: 'missing/left.csv' },
        right: { recordId: randomUUID(), name: 'b.csv', fileId: randomUUID(), fileName: 'b.csv', storageKey: 'missing/right.csv' },
        merge: { mergeType: 'horizontal', pairs: [{ left: 'key', right: 'key' }] },
      }),
    );
    const job = await eventually(async () => {
      const rows = await service.sql("SELECT info, status, progress_current FROM jobs.jobs WHERE job_id = $1 AND status <> 'active'", [jobId]);
      expect(rows).toHaveLength(1);
      return rows[0];
    });
    expect(job.status).toBe('failed');
    expect(job.info).toBe(
      'The merge was stopped: its result would take your merged records past your storage quota of 1,000 bytes (DERIVED_STORAGE_QUOTA_BYTES); ' +
        'they take 1,000 bytes now. Delete merged records you no longer need, then merge again.',
    );
  });
});
