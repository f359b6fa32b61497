import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@dc/platform';
import { refusal } from '@dc/testing';
import type { Job } from './job';
import type { JobsRepository } from './jobs.repository';
import { JOB_DELETE_FAILED, JOB_DELETED, JobsService, NO_JOBS } from './jobs.service';

/** The registry's reads and deletes in memory, with its rules: the owner's jobs newest first, deleted ones gone for good. */
class FakeJobs implements Pick<JobsRepository, 'list' | 'find' | 'delete'> {
  readonly jobs: Array<Job & { deleted: boolean }> = [];

  async list(ownerId: string, activeOnly: boolean, page: { offset: number; limit: number }) {
    const mine = this.jobs
      .filter((j) => j.ownerId === ownerId && !j.deleted && (!activeOnly || j.status === 'active'))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.jobId.localeCompare(b.jobId));
    return { count: mine.length, jobs: mine.slice(page.offset, page.offset + page.limit) };
  }
  async find(jobId: string) {
    return this.jobs.find((j) => j.jobId === jobId && !j.deleted) ?? null;
  }
  async delete(jobId: string, ownerId: string) {
    const job = this.jobs.find((j) => j.jobId === jobId && j.ownerId === ownerId && !j.deleted);
    if (job) job.deleted = true;
    return !!job;
  }
}

const user = (username: string): AuthUser => ({
  id: randomUUID(),
  username,
  organisationId: randomUUID(),
  clientType: 'STANDARD',
  permissions: [],
  groups: [3],
  passwordVersion: 1,
});
const owner = user('owner');
const other = user('other');

describe('JobsService on an in-memory registry: only the owner lists, reads and deletes a job', () => {
  let registry: FakeJobs;
  let service: JobsService;
  const side = (name: string, grant: Job['left']['grant'] = null, terms: Job['left']['terms'] = 'own') => ({
    id: randomUUID(),
    name,
    removed: false,
    terms,
    requestId: grant ? randomUUID() : null,
    grant,
  });
  const job = (overrides: Partial<Job> = {}, minutesAgo = 0): Job => {
    const added: Job & { deleted: boolean } = {
      jobId: randomUUID(),
      type: 'LINK',
      ownerId: owner.id,
      info: 'Link of Rainfall and Stations.',
      left: side('Rainfall'),
      right: side('Stations'),
      progress: { current: 3, total: 3 },
      status: 'done',
      resultRecordId: null,
      matches: [{ fieldsA: ['station'], fieldsB: ['station_id'], rowA: 1, rowB: 2, rows_match_prob: 0.9 }],
      totRows: { left: 10, right: 12 },
      harvest: null,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      completedAt: new Date(),
      deleted: false,
      ...overrides,
    };
    registry.jobs.push(added);
    return added;
  };

  beforeEach(() => {
    registry = new FakeJobs();
    service = new JobsService(registry as unknown as JobsRepository);
  });

  it('says when there are no jobs, and pages the rest with links to the next and previous pages', async () => {
    expect(await service.list(owner, false, {})).toEqual({ count: 0, next: null, previous: null, results: [], message: NO_JOBS });
    const newest = job({}, 1);
    job({}, 2);
    job({ status: 'active', completedAt: null }, 3);
    job({ ownerId: other.id });

    const first = await service.list(owner, false, { page_size: 2 });
    expect(first).toMatchObject({ count: 3, next: '?page=2', previous: null });
    expect(first).not.toHaveProperty('message');
    expect(first.results.map((r) => r.job_id)[0]).toBe(newest.jobId);
    const second = await service.list(owner, false, { page: '2', page_size: '2' });
    expect(second).toMatchObject({ count: 3, next: null, previous: '?page=1' });
    expect(second.results).toEqual([expect.objectContaining({ is_active: true, status: 'active', completed: null })]);
    expect((await service.list(owner, true, {})).count).toBe(1);
  });

  it('lists a LINK job with its count of matches only; its content holds the row pairs', async () => {
    const link = job();
    const [listed] = (await service.list(owner, false, {})).results;
    expect(listed.content).toMatchObject({ total_matches: 1, withheld: null });
    expect(listed.content).not.toHaveProperty('matches');
    expect((await service.content(owner, link.jobId)).content.matches).toEqual(link.matches);
  });

  it("withholds a LINK job's row pairs once the grant a side was read under has ended", async () => {
    const revoked = job({ left: side('Rainfall', { status: 'revoked', expiresAt: null }, 'grant') });
    const view = await service.content(owner, revoked.jobId);
    expect(view.content).toMatchObject({
      total_matches: 0,
      matches: [],
      withheld: 'The access grant on "Rainfall" has ended: the links made under it are no longer shown.',
    });
  });

  it("answers another user's job as one that does not exist, and deletes only the owner's, once", async () => {
    const mine = job();
    expect(await refusal(service.content(other, mine.jobId))).toEqual({ status: 404, body: { detail: 'Not found.' } });
    expect(await refusal(service.content(owner, randomUUID()))).toEqual({ status: 404, body: { detail: 'Not found.' } });
    expect(await refusal(service.delete(other, mine.jobId))).toEqual({ status: 404, body: { detail: JOB_DELETE_FAILED } });
    expect(registry.jobs[0].deleted).toBe(false);

    expect(await service.delete(owner, mine.jobId)).toEqual({ detail: JOB_DELETED });
    expect(await refusal(service.delete(owner, mine.jobId))).toEqual({ status: 404, body: { detail: JOB_DELETE_FAILED } });
    expect(await refusal(service.content(owner, mine.jobId))).toEqual({ status: 404, body: { detail: 'Not found.' } });
    expect(await service.list(owner, false, {})).toMatchObject({ count: 0, message: NO_JOBS });
  });
});
