import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * record.* ownerOnly in the records projection: a record derived from data shared with its maker
 * alone (lineage) is seen by its owner only, so nobody else may request it.
 */
export class RequestsOwnerOnlyRecords1764510000000 implements MigrationInterface {
  name = 'RequestsOwnerOnlyRecords1764510000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE requests.records ADD COLUMN owner_only boolean NOT NULL DEFAULT false');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE requests.records DROP COLUMN owner_only');
  }
}
