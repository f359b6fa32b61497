import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { JobCompleted, JobProgressed, JobRequestedPayload, JobStartedPayload, SourceTerms } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import type { z } from 'zod';
import type { Job, JobSide } from './job';

interface JobRow {
  job_id: string;
  type: Job['type'];
  owner_id: string;
  info: string;
  record_left_id: string;
  record_left_name: string;
  record_right_id: string;
  record_right_name: string;
  progress_current: number;
  progress_total: number;
  status: Job['status'];
  result_record_id: string | null;
  // Written from job.completed payloads, validated against linkMatchSchema when consumed.
  matches: Job['matches'];
  tot_rows: Job['totRows'];
  harvest: Job['harvest'];
  created_at: Date;
  completed_at: Date | null;
  left_removed: boolean;
  right_removed: boolean;
  left_terms: SourceTerms | null;
  left_request_id: string | null;
  left_grant_status: string | null;
  left_grant_expires_at: Date | null;
  right_terms: SourceTerms | null;
  right_request_id: string | null;
  right_grant_status: string | null;
  right_grant_expires_at: Date | null;
}

const side = (
  id: string,
  name: string,
  removed: boolean,
  terms: SourceTerms | null,
  requestId: string | null,
  status: string | null,
  expiresAt: Date | null,
): JobSide => ({
  id,
  name,
  removed,
  terms,
  requestId,
  grant: status === null ? null : { status, expiresAt },
});

const toJob = (row: JobRow): Job => ({
  jobId: row.job_id,
  type: row.type,
  ownerId: row.owner_id,
  info: row.info,
  left: side(row.record_left_id, row.record_left_name, row.left_removed, row.left_terms, row.left_request_id, row.left_grant_status, row.left_grant_expires_at),
  right: side(
    row.record_right_id,
    row.record_right_name,
    row.right_removed,
    row.right_terms,
    row.right_request_id,
    row.right_grant_status,
    row.right_grant_expires_at,
  ),
  progress: { current: row.progress_current, total: row.progress_total },
  status: row.status,
  resultRecordId: row.result_record_id,
  matches: row.matches,
  totRows: row.tot_rows,
  harvest: row.harvest,
  createdAt: row.created_at,
  completedAt: row.completed_at,
});

// Each side's request only if it is the owner's request for that very record.
const SELECT_JOBS = `SELECT j.*, EXISTS (SELECT 1 FROM jobs.removed_records r WHERE r.record_id = j.record_left_id) AS left_removed,
  EXISTS (SELECT 1 FROM jobs.removed_records r WHERE r.record_id = j.record_right_id) AS right_removed,
  lg.status AS left_grant_status, lg.expires_at AS left_grant_expires_at, rg.status AS right_grant_status, rg.expires_at AS right_grant_expires_at
  FROM jobs.jobs j
  LEFT JOIN jobs.request_grants lg ON lg.request_id = j.left_request_id AND lg.requestor_id = j.owner_id AND lg.record_id = j.record_left_id
  LEFT JOIN jobs.request_grants rg ON rg.request_id = j.right_request_id AND rg.requestor_id = j.owner_id AND rg.record_id = j.record_right_id`;

/**
 * The job registry: all I/O of the jobs schema. Progress never goes backwards and a finished job
 * stays finished, whatever order redelivered events arrive in.
 */
@Injectable()
export class JobsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  async register(manager: EntityManager, job: JobRequestedPayload, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO jobs.jobs (job_id, type, owner_id, info, record_left_id, record_left_name, record_right_id, record_right_name, created_at,
         left_terms, left_request_id, right_terms, right_request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (job_id) DO NOTHING`,
      [
        job.jobId,
        job.type,
        job.owner.userId,
        job.info,
        job.left.recordId,
        job.left.name,
        job.right.recordId,
        job.right.name,
        occurredAt,
        job.left.terms,
        job.left.requestId,
        job.right.terms,
        job.right.requestId,
      ],
    );
  }

  /** A job a service runs itself (job.started): no records on either side; the left side names the source imported. */
  async registerStarted(manager: EntityManager, job: JobStartedPayload, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO jobs.jobs (job_id, type, owner_id, info, record_left_id, record_left_name, record_right_id, record_right_name, created_at,
         progress_total)
       VALUES ($1, $2, $3, $4, '', $5, '', '', $6, $7) ON CONFLICT (job_id) DO NOTHING`,
      [job.jobId, job.type, job.owner.userId, job.info, job.source, occurredAt, job.total],
    );
  }

  async progress(manager: EntityManager, progress: z.output<typeof JobProgressed.payload>): Promise<void> {
    await manager.query(
      `UPDATE jobs.jobs SET progress_current = $2, progress_total = $3
       WHERE job_id = $1 AND status = 'active' AND $2::float / $3 >= progress_current::float / progress_total`,
      [progress.jobId, progress.current, progress.total],
    );
  }

  async complete(manager: EntityManager, done: z.output<typeof JobCompleted.payload>, occurredAt: string): Promise<void> {
    await manager.query(
      `UPDATE jobs.jobs SET status = $2, info = $3, result_record_id = $4, matches = $5::jsonb, tot_rows = $6::jsonb, completed_at = $7,
         progress_current = progress_total, harvest = $8::jsonb
       WHERE job_id = $1 AND status = 'active'`,
      [
        done.jobId,
        done.status,
        done.info,
        done.resultRecordId,
        JSON.stringify(done.matches),
        done.totRows && JSON.stringify(done.totRows),
        occurredAt,
        done.harvest && JSON.stringify(done.harvest),
      ],
    );
  }

  async recordRemoved(manager: EntityManager, recordId: string, occurredAt: string): Promise<void> {
    await manager.query('INSERT INTO jobs.removed_records (record_id, removed_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [recordId, occurredAt]);
  }

  /** The owner's jobs, newest first. */
  async list(ownerId: string, activeOnly: boolean, page: { offset: number; limit: number }): Promise<{ count: number; jobs: Job[] }> {
    const where = `WHERE j.owner_id = $1 AND NOT j.deleted${activeOnly ? " AND j.status = 'active'" : ''}`;
    const [{ count }] = (await this.db.dataSource.query(`SELECT count(*)::int AS count FROM jobs.jobs j ${where}`, [ownerId])) as Array<{ count: number }>;
    const rows = (await this.db.dataSource.query(`${SELECT_JOBS} ${where} ORDER BY j.created_at DESC, j.job_id LIMIT $2 OFFSET $3`, [
      ownerId,
      page.limit,
      page.offset,
    ])) as JobRow[];
    return { count, jobs: rows.map(toJob) };
  }

  async find(jobId: string): Promise<Job | null> {
    const [row] = (await this.db.dataSource.query(`${SELECT_JOBS} WHERE j.job_id = $1 AND NOT j.deleted`, [jobId])) as JobRow[];
    return row ? toJob(row) : null;
  }

  /** Deletes the owner's job (kept as a tombstone so late events cannot bring it back); false when there was none. */
  async delete(jobId: string, ownerId: string): Promise<boolean> {
    const [, affected] = (await this.db.dataSource.query('UPDATE jobs.jobs SET deleted = true WHERE job_id = $1 AND owner_id = $2 AND NOT deleted', [
      jobId,
      ownerId,
    ])) as [unknown, number];
    return affected > 0;
  }
}
