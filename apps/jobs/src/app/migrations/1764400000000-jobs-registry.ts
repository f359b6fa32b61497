import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job registry (spec: Job), kept from job.* events; and the records that were deleted since
 * (record.deleted), so a LINK job's result can say that a side was removed from the product; and
 * the job workers' finished runs.
 */
export class JobsRegistry1764400000000 implements MigrationInterface {
  name = 'JobsRegistry1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE jobs.jobs (
      job_id text PRIMARY KEY,
      type text NOT NULL,
      owner_id text NOT NULL,
      info text NOT NULL DEFAULT '',
      record_left_id text NOT NULL,
      record_left_name text NOT NULL,
      record_right_id text NOT NULL,
      record_right_name text NOT NULL,
      progress_current int NOT NULL DEFAULT 0,
      progress_total int NOT NULL DEFAULT 1,
      status text NOT NULL DEFAULT 'active',
      result_record_id text NULL,
      matches jsonb NOT NULL DEFAULT '[]',
      tot_rows jsonb NULL,
      created_at timestamptz NOT NULL,
      completed_at timestamptz NULL,
      deleted boolean NOT NULL DEFAULT false
    )`);
    await runner.query('CREATE INDEX jobs_owner_created ON jobs.jobs (owner_id, created_at DESC) WHERE NOT deleted');
    await runner.query('CREATE TABLE jobs.removed_records (record_id text PRIMARY KEY, removed_at timestamptz NOT NULL)');
    // Written by a job worker in the same transaction as a job's completion events: a job redelivered
    // after it finished (a worker killed before acknowledging it) is not run again.
    await runner.query('CREATE TABLE jobs.finished_runs (job_id text PRIMARY KEY, finished_at timestamptz NOT NULL)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE jobs.finished_runs');
    await runner.query('DROP TABLE jobs.removed_records');
    await runner.query('DROP TABLE jobs.jobs');
  }
}
