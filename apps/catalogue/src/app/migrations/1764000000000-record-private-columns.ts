import { MigrationInterface, QueryRunner } from 'typeorm';

/** The owner's private-column choices (hash, share formats, summary list) for extraction of a record's files. */
export class RecordPrivateColumns1764000000000 implements MigrationInterface {
  name = 'RecordPrivateColumns1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.records ADD COLUMN private_columns jsonb NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.records DROP COLUMN private_columns');
  }
}
