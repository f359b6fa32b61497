import { MigrationInterface, QueryRunner } from 'typeorm';

/** The requests service's requests (request.* events): an approved requestor may read the rows of a record. */
export class RelationsRequestGrants1764300000000 implements MigrationInterface {
  name = 'RelationsRequestGrants1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE relations.request_grants (
        request_id text PRIMARY KEY,
        record_id text NOT NULL,
        requestor_id text NOT NULL,
        status text NOT NULL,
        expires_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        version int NOT NULL
      )`);
    await runner.query('CREATE INDEX request_grants_pair_idx ON relations.request_grants (record_id, requestor_id, created_at DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE relations.request_grants');
  }
}
