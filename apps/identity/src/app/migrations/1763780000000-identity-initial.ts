import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityInitial1763780000000 implements MigrationInterface {
  name = 'IdentityInitial1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE identity.organisations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE identity.users (
        id uuid PRIMARY KEY,
        username text NOT NULL,
        email text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        description text NOT NULL DEFAULT '',
        password_hash text NOT NULL,
        password_version int NOT NULL DEFAULT 1,
        organisation_id uuid NOT NULL REFERENCES identity.organisations(id),
        client_type text NOT NULL CHECK (client_type IN ('STANDARD', 'BASIC')),
        active boolean NOT NULL DEFAULT false,
        groups int[] NOT NULL DEFAULT '{}',
        date_joined timestamptz NOT NULL DEFAULT now()
      )`);
    // Usernames and emails are unique whatever their case.
    await runner.query('CREATE UNIQUE INDEX users_username_key ON identity.users (lower(username))');
    await runner.query('CREATE UNIQUE INDEX users_email_key ON identity.users (lower(email))');
    await runner.query('CREATE INDEX users_organisation_idx ON identity.users (organisation_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity.users');
    await runner.query('DROP TABLE identity.organisations');
  }
}
