import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The time of the event each user and organisation row came from (its occurredAt), so an older
 * event arriving late changes nothing. Rows from before, and callers remembered from their token
 * alone, start at -infinity: the next event about them wins.
 */
export class RequestsDirectoryUpdatedAt1767312000000 implements MigrationInterface {
  name = 'RequestsDirectoryUpdatedAt1767312000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE requests.users ADD COLUMN updated_at timestamptz NOT NULL DEFAULT '-infinity'`);
    await runner.query(`ALTER TABLE requests.organisations ADD COLUMN updated_at timestamptz NOT NULL DEFAULT '-infinity'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE requests.organisations DROP COLUMN updated_at');
    await runner.query('ALTER TABLE requests.users DROP COLUMN updated_at');
  }
}
