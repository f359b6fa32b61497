import { MigrationInterface, QueryRunner } from 'typeorm';

/** The search service's projection of people and organisations (names shown on record cards). */
export class SearchInitial1763780000000 implements MigrationInterface {
  name = 'SearchInitial1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE search.organisations (
        id text PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE search.users (
        id text PRIMARY KEY,
        username text NOT NULL,
        organisation_id text NOT NULL,
        client_type text NOT NULL,
        active boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE search.users');
    await runner.query('DROP TABLE search.organisations');
  }
}
