import { Injectable } from '@nestjs/common';
import { listPage, pageOf } from '@dc/contracts';
import { type AuthUser, notFound } from '@dc/platform';
import type { z } from 'zod';
import type { jobDeletedSchema, jobsPageSchema } from './dto';
import { jobView } from './job';
import { JobsRepository } from './jobs.repository';

export const NO_JOBS = 'No jobs were found.';
export const JOB_DELETED = 'Job deleted.';
export const JOB_DELETE_FAILED = 'Job delete failed.';

/**
 * The Jobs page's calls: only the job's owner lists, reads or deletes it. A LINK job's row pairs are
 * shown only while the grants its records were read under hold (jobView).
 */
@Injectable()
export class JobsService {
  constructor(private readonly jobs: JobsRepository) {}

  async list(owner: AuthUser, activeOnly: boolean, query: { page?: unknown; page_size?: unknown }): Promise<z.output<typeof jobsPageSchema>> {
    const at = pageOf(query);
    const { count, jobs } = await this.jobs.list(owner.id, activeOnly, { offset: at.offset, limit: at.pageSize });
    // One moment for the whole page, so two jobs under one expiring grant agree.
    const now = new Date();
    const results = jobs.map((job) => jobView(job, false, now));
    return { ...listPage(results, count, at, (n) => `?page=${n}`), ...(count === 0 ? { message: NO_JOBS } : {}) };
  }

  /** Someone else's job answers like a job that does not exist: nothing about it leaks. */
  async content(owner: AuthUser, jobId: string) {
    const job = await this.jobs.find(jobId);
    if (!job || job.ownerId !== owner.id) throw notFound();
    return jobView(job, true);
  }

  async delete(owner: AuthUser, jobId: string): Promise<z.output<typeof jobDeletedSchema>> {
    if (!(await this.jobs.delete(jobId, owner.id))) throw notFound(JOB_DELETE_FAILED);
    return { detail: JOB_DELETED };
  }
}
