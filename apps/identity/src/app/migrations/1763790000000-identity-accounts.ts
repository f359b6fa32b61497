import { MigrationInterface, QueryRunner } from 'typeorm';

/** Activation and reset tokens, login throttling, API keys. */
export class IdentityAccounts1763790000000 implements MigrationInterface {
  name = 'IdentityAccounts1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    // Set once the owner proved their email (activation link, reset link) or an admin created the account.
    await runner.query('ALTER TABLE identity.users ADD COLUMN activated_at timestamptz');
    await runner.query(`
      CREATE TABLE identity.one_time_tokens (
        token_hash text PRIMARY KEY,
        purpose text NOT NULL CHECK (purpose IN ('activation', 'password_reset')),
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await runner.query('CREATE INDEX one_time_tokens_user_idx ON identity.one_time_tokens (user_id, purpose)');
    await runner.query(`
      CREATE TABLE identity.login_failures (
        id bigserial PRIMARY KEY,
        scope text NOT NULL CHECK (scope IN ('account', 'address')),
        subject text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX login_failures_subject_idx ON identity.login_failures (scope, subject, failed_at)');
    await runner.query('CREATE INDEX login_failures_failed_at_idx ON identity.login_failures (failed_at)');
    await runner.query(`
      CREATE TABLE identity.api_keys (
        user_id uuid PRIMARY KEY REFERENCES identity.users(id) ON DELETE CASCADE,
        token text NOT NULL UNIQUE,
        secret_encrypted text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity.api_keys');
    await runner.query('DROP TABLE identity.login_failures');
    await runner.query('DROP TABLE identity.one_time_tokens');
    await runner.query('ALTER TABLE identity.users DROP COLUMN activated_at');
  }
}
