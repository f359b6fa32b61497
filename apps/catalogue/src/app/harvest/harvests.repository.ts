import { Injectable } from '@nestjs/common';
import type { HarvestOutcome } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import { instanceAlive } from '../recovery/catalogue-instance';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import type { HarvestedDataset } from './dcat-reader';

/** An import as it is written down before it starts: everything needed to take it up again after a restart. */
export interface HarvestJob {
  jobId: string;
  owner: AuthUser;
  source: string;
  datasets: HarvestedDataset[];
  done: number;
  outcome: HarvestOutcome;
  status: 'running' | 'done' | 'failed';
}

interface HarvestJobRow {
  job_id: string;
  owner: AuthUser;
  source: string;
  datasets: HarvestedDataset[];
  done: number;
  outcome: HarvestOutcome;
  status: HarvestJob['status'];
}

const toJob = (row: HarvestJobRow): HarvestJob => ({
  jobId: row.job_id,
  owner: row.owner,
  source: row.source,
  datasets: row.datasets,
  done: row.done,
  outcome: row.outcome,
  status: row.status,
});

/** All I/O of DCAT imports, in the unit of work. */
@Injectable()
export class HarvestsRepository {
  constructor(private readonly work: UnitOfWork) {}

  async insertJob(job: HarvestJob, holder: string): Promise<void> {
    // The owner is kept without the token's own id and expiry: the job outlives the token.
    const { id, username, organisationId, clientType, permissions, groups, passwordVersion } = job.owner;
    await this.work.manager.query(
      `INSERT INTO catalogue.harvest_jobs (job_id, owner, source, datasets, done, outcome, status, holder) VALUES ($1, $2, $3, $4, 0, $5, 'running', $6)`,
      [
        job.jobId,
        JSON.stringify({ id, username, organisationId, clientType, permissions, groups, passwordVersion }),
        job.source,
        JSON.stringify(job.datasets),
        JSON.stringify(job.outcome),
        holder,
      ],
    );
  }

  async findJob(jobId: string): Promise<HarvestJob | null> {
    const rows = (await this.work.manager.query('SELECT * FROM catalogue.harvest_jobs WHERE job_id = $1', [jobId])) as HarvestJobRow[];
    return rows[0] ? toJob(rows[0]) : null;
  }

  /** One more dataset handled (in the transaction that handled it, so a restart does not count it twice). */
  async advance(jobId: string, done: number, outcome: HarvestOutcome): Promise<void> {
    await this.work.manager.query('UPDATE catalogue.harvest_jobs SET done = $2, outcome = $3 WHERE job_id = $1', [jobId, done, JSON.stringify(outcome)]);
  }

  async finish(jobId: string, status: 'done' | 'failed'): Promise<void> {
    await this.work.manager.query(`UPDATE catalogue.harvest_jobs SET status = $2, completed_at = now() WHERE job_id = $1`, [jobId, status]);
  }

  /** Running imports whose instance died (its advisory lock is gone), taken over by `holder`. */
  async claimAbandoned(holder: string): Promise<string[]> {
    const rows = (await this.work.manager.query(
      `UPDATE catalogue.harvest_jobs SET holder = $1
       WHERE status = 'running' AND holder <> $1 AND NOT ${instanceAlive('holder')}
       RETURNING job_id`,
      [holder],
    )) as [Array<{ job_id: string }>, number];
    return rows[0].map((row) => row.job_id);
  }

  /** The record a dataset of the organisation became, if it still exists. */
  async recordOf(organisationId: string, sourceIri: string): Promise<string | null> {
    const rows = (await this.work.manager.query(
      `SELECT h.record_id FROM catalogue.harvested_datasets h JOIN catalogue.records r ON r.id = h.record_id
       WHERE h.organisation_id = $1 AND h.source_iri = $2`,
      [organisationId, sourceIri],
    )) as Array<{ record_id: string }>;
    return rows[0]?.record_id ?? null;
  }

  async remember(organisationId: string, sourceIri: string, recordId: string): Promise<void> {
    await this.work.manager.query(
      `INSERT INTO catalogue.harvested_datasets (organisation_id, source_iri, record_id) VALUES ($1, $2, $3)
       ON CONFLICT (organisation_id, source_iri) DO UPDATE SET record_id = EXCLUDED.record_id, harvested_at = now()`,
      [organisationId, sourceIri, recordId],
    );
  }

  /** Serialises imports of one dataset into one organisation (two imports at once make one record). */
  async lockDataset(organisationId: string, sourceIri: string): Promise<void> {
    await this.work.manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [`${organisationId} ${sourceIri}`]);
  }
}
