import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Row-hash indexes of stored files: one build per file (its columns' per-row value hashes are
 * objects under relations/row-index/{file}/{build}/ in object storage), so row links read a few
 * compact columns instead of parsing the file again. A build is ready, failed, or dropped (its file
 * changed or went away: the worker deletes its objects, then the row).
 */
export class RelationsRowIndexes1764310000000 implements MigrationInterface {
  name = 'RelationsRowIndexes1764310000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE relations.row_indexes (
      build_id uuid PRIMARY KEY,
      file_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('ready', 'failed', 'dropped')),
      columns jsonb NOT NULL DEFAULT '[]',
      error text NULL,
      built_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query('CREATE INDEX relations_row_indexes_file ON relations.row_indexes (file_id)');
    await runner.query(`CREATE INDEX relations_row_indexes_dropped ON relations.row_indexes (built_at) WHERE status = 'dropped'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE relations.row_indexes');
  }
}
