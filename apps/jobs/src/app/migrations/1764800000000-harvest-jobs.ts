import { MigrationInterface, QueryRunner } from 'typeorm';

/** HARVEST jobs (DCAT imports, job.started): what the import made of the datasets, from job.completed. */
export class HarvestJobs1764800000000 implements MigrationInterface {
  name = 'HarvestJobs1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE jobs.jobs ADD COLUMN harvest jsonb NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE jobs.jobs DROP COLUMN harvest');
  }
}
