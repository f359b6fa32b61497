import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each requestor's requests (request.* events), so a card shows "Request {status}" to its requestor. */
export class SearchRequestStatuses1764300000000 implements MigrationInterface {
  name = 'SearchRequestStatuses1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE search.request_statuses (
        request_id text PRIMARY KEY,
        record_id text NOT NULL,
        requestor_id text NOT NULL,
        status text NOT NULL,
        expires_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        version int NOT NULL
      )`);
    await runner.query('CREATE INDEX request_statuses_requestor_idx ON search.request_statuses (requestor_id, record_id, created_at DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE search.request_statuses');
  }
}
