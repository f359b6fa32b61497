import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Login failures are counted per address and account pair (a guesser elsewhere cannot lock the
 * owner out), sign-ups per address; tokens ended by logout are remembered until they expire.
 */
export class ThrottlePairsRevokedTokens1764300000000 implements MigrationInterface {
  name = 'ThrottlePairsRevokedTokens1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DELETE FROM identity.login_failures');
    await runner.query('ALTER TABLE identity.login_failures DROP CONSTRAINT login_failures_scope_check');
    await runner.query(`ALTER TABLE identity.login_failures ADD CONSTRAINT login_failures_scope_check CHECK (scope IN ('pair', 'address', 'signup'))`);
    // The address of a pair; the account name (as typed, lower case) stays in subject.
    await runner.query('ALTER TABLE identity.login_failures ADD COLUMN address text');
    await runner.query(`
      CREATE TABLE identity.revoked_tokens (
        token_id uuid PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX revoked_tokens_expires_at_idx ON identity.revoked_tokens (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity.revoked_tokens');
    await runner.query('DELETE FROM identity.login_failures');
    await runner.query('ALTER TABLE identity.login_failures DROP COLUMN address');
    await runner.query('ALTER TABLE identity.login_failures DROP CONSTRAINT login_failures_scope_check');
    await runner.query(`ALTER TABLE identity.login_failures ADD CONSTRAINT login_failures_scope_check CHECK (scope IN ('account', 'address'))`);
  }
}
