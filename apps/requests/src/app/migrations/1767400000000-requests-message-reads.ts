import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How far each party has read a request's thread: a message another party wrote after read_at is
 * unread for that user (the Requests entry of the side menu counts them). No row: nothing read yet.
 */
export class RequestsMessageReads1767400000000 implements MigrationInterface {
  name = 'RequestsMessageReads1767400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE requests.message_reads (
        request_id uuid NOT NULL REFERENCES requests.requests(id),
        user_id text NOT NULL,
        read_at timestamptz NOT NULL,
        PRIMARY KEY (request_id, user_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE requests.message_reads');
  }
}
