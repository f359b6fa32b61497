import { MigrationInterface, QueryRunner } from 'typeorm';

/** SQL connections of users (spec section 3 Connection): the password sealed with AES-256-GCM. */
export class Connections1764200000000 implements MigrationInterface {
  name = 'Connections1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE catalogue.connections (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        organisation_id text NOT NULL,
        -- the database's name
        name text NOT NULL,
        sqltype text NOT NULL CHECK (sqltype IN ('mysql', 'postgresql')),
        host text NOT NULL,
        port int NOT NULL CHECK (port BETWEEN 1 AND 65535),
        username text NOT NULL,
        -- SecretCipher (ENCRYPTION_KEY), bound to the connection's id; never returned
        sealed_password text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX connections_owner_idx ON catalogue.connections (owner_id, created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.connections');
  }
}
