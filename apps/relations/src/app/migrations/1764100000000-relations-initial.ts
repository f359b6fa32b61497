import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relations service's projection: records (visibility facts, headers, words) from record.*,
 * column sketches of their files from file.sketched, and an inverted index of the smallest value
 * hashes of each column (joinable-with finds candidate columns without scanning every record).
 */
export class RelationsInitial1764100000000 implements MigrationInterface {
  name = 'RelationsInitial1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE relations.records (
      record_id text PRIMARY KEY,
      name text NOT NULL,
      owner_id text NOT NULL,
      organisation_id text NOT NULL,
      visibility text NOT NULL,
      shared_user_ids text[] NOT NULL DEFAULT '{}',
      shared_organisation_ids text[] NOT NULL DEFAULT '{}',
      access text NOT NULL,
      type text NOT NULL DEFAULT '',
      size bigint NOT NULL DEFAULT 0,
      changed_at timestamptz NOT NULL,
      headers jsonb NOT NULL DEFAULT '[]',
      words jsonb NOT NULL DEFAULT '[]',
      total_rows bigint NULL,
      encrypted_headers jsonb NOT NULL DEFAULT '[]',
      file_ids text[] NOT NULL DEFAULT '{}',
      occurred_at timestamptz NOT NULL,
      deleted boolean NOT NULL DEFAULT false
    )`);
    await runner.query('CREATE INDEX relations_records_visibility ON relations.records (visibility, organisation_id) WHERE NOT deleted');
    await runner.query(`CREATE TABLE relations.file_sketches (
      file_id text PRIMARY KEY,
      record_id text NOT NULL,
      file_name text NOT NULL,
      content_type text NOT NULL,
      storage_key text NULL,
      tables jsonb NOT NULL,
      occurred_at timestamptz NOT NULL
    )`);
    await runner.query('CREATE INDEX relations_file_sketches_record ON relations.file_sketches (record_id)');
    await runner.query(`CREATE TABLE relations.column_tokens (
      token bigint NOT NULL,
      record_id text NOT NULL,
      file_id text NOT NULL,
      table_index int NOT NULL,
      column_index int NOT NULL
    )`);
    await runner.query('CREATE INDEX relations_column_tokens_token ON relations.column_tokens (token)');
    await runner.query('CREATE INDEX relations_column_tokens_file ON relations.column_tokens (file_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE relations.column_tokens');
    await runner.query('DROP TABLE relations.file_sketches');
    await runner.query('DROP TABLE relations.records');
  }
}
