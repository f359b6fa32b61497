import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bytes of each merge result the job workers stored, per owner, for the quota on derived
 * records: written with the job's completion, forgotten on record.deleted. The jobs service never
 * reads the catalogue's tables, so it keeps its own count.
 */
export class DerivedStorage1764500000000 implements MigrationInterface {
  name = 'DerivedStorage1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE jobs.derived_storage (
      record_id text PRIMARY KEY,
      job_id text NOT NULL UNIQUE,
      owner_id text NOT NULL,
      bytes bigint NOT NULL CHECK (bytes >= 0),
      stored_at timestamptz NOT NULL
    )`);
    await runner.query('CREATE INDEX derived_storage_owner ON jobs.derived_storage (owner_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE jobs.derived_storage');
  }
}
