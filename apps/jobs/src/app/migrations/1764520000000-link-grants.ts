import { MigrationInterface, QueryRunner } from 'typeorm';
import { requestProjectionTableSql } from '@dc/platform';

/**
 * Lineage for LINK results: the terms the job's owner read each side under (job.requested; null for
 * jobs asked for before lineage, which follow nothing), and the jobs service's own projection of
 * request.* events, so a side read under a grant shows its row pairs only while that request grants.
 */
export class LinkGrants1764520000000 implements MigrationInterface {
  name = 'LinkGrants1764520000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE jobs.jobs
      ADD COLUMN left_terms text NULL, ADD COLUMN left_request_id text NULL,
      ADD COLUMN right_terms text NULL, ADD COLUMN right_request_id text NULL`);
    await runner.query(requestProjectionTableSql('jobs.request_grants'));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE jobs.request_grants');
    await runner.query('ALTER TABLE jobs.jobs DROP COLUMN left_terms, DROP COLUMN left_request_id, DROP COLUMN right_terms, DROP COLUMN right_request_id');
  }
}
