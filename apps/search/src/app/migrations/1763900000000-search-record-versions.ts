import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which event each indexed record (and each deletion) came from, so an older event delivered late
 * never overwrites a newer state; and each record's owner and organisation, whose names the cards show.
 */
export class SearchRecordVersions1763900000000 implements MigrationInterface {
  name = 'SearchRecordVersions1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE search.record_versions (
        id text PRIMARY KEY,
        owner_id text NOT NULL,
        organisation_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await runner.query('CREATE INDEX record_versions_owner_idx ON search.record_versions (owner_id) WHERE NOT deleted');
    await runner.query('CREATE INDEX record_versions_organisation_idx ON search.record_versions (organisation_id) WHERE NOT deleted');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE search.record_versions');
  }
}
