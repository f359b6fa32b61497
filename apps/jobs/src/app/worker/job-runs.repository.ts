import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';

/** Rolls the finishing transaction back when admit refuses. */
class Refused extends Error {}

/** What job workers write to the jobs schema: their reports (through the outbox) and finished runs. */
@Injectable()
export class JobRunsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async isFinished(jobId: string): Promise<boolean> {
    const rows = (await this.db.dataSource.query('SELECT 1 FROM jobs.finished_runs WHERE job_id = $1', [jobId])) as unknown[];
    return rows.length > 0;
  }

  /** Was the job deleted from the registry (by its owner) before it ran? */
  async isDeleted(jobId: string): Promise<boolean> {
    const rows = (await this.db.dataSource.query('SELECT 1 FROM jobs.jobs WHERE job_id = $1 AND deleted', [jobId])) as unknown[];
    return rows.length > 0;
  }

  async report(...events: EventEnvelope[]): Promise<void> {
    await this.db.transaction((tx) => tx.publish(...events));
  }

  /** The job's last events and its finished mark, in one transaction: a job finishes exactly once. */
  async finish(jobId: string, ...events: EventEnvelope[]): Promise<void> {
    await this.finishAdmitted(jobId, async () => true, ...events);
  }

  /**
   * As finish, but `admit`, run in the same transaction once the mark is set, may refuse: then
   * nothing is written and the answer is false. A job that had finished already answers true.
   */
  async finishAdmitted(jobId: string, admit: (manager: EntityManager) => Promise<boolean>, ...events: EventEnvelope[]): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        const inserted = (await tx.manager.query(
          'INSERT INTO jobs.finished_runs (job_id, finished_at) VALUES ($1, now()) ON CONFLICT DO NOTHING RETURNING job_id',
          [jobId],
        )) as unknown[];
        if (inserted.length === 0) return;
        if (!(await admit(tx.manager))) throw new Refused();
        await tx.publish(...events);
      });
      return true;
    } catch (error) {
      if (error instanceof Refused) return false;
      throw error;
    }
  }
}
