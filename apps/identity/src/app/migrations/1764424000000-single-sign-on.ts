import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with an organisation's OpenID Connect provider: one provider per organisation (its client
 * secret sealed by SecretCipher, bound to the provider's id), the provider identities linked to
 * accounts (issuer + subject, never the email), sign-ins under way (state, nonce, PKCE verifier) and
 * their one-time results, which the web app exchanges for the product's JWT.
 */
export class SingleSignOn1764424000000 implements MigrationInterface {
  name = 'SingleSignOn1764424000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE identity.sso_providers (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL UNIQUE REFERENCES identity.organisations(id) ON DELETE CASCADE,
        name text NOT NULL,
        issuer text NOT NULL,
        client_id text NOT NULL,
        -- SecretCipher (ENCRYPTION_KEY), bound to the provider's id; never returned
        client_secret_encrypted text NOT NULL,
        allowed_domains text[] NOT NULL,
        client_type text NOT NULL CHECK (client_type IN ('STANDARD', 'BASIC')),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE identity.sso_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await runner.query('CREATE INDEX sso_identities_user_id_idx ON identity.sso_identities (user_id)');
    await runner.query(`
      CREATE TABLE identity.sso_attempts (
        state_hash text PRIMARY KEY,
        browser_hash text NOT NULL,
        provider_id uuid NOT NULL REFERENCES identity.sso_providers(id) ON DELETE CASCADE,
        code_verifier text NOT NULL,
        nonce text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE identity.sso_results (
        code_hash text PRIMARY KEY,
        user_id uuid REFERENCES identity.users(id) ON DELETE CASCADE,
        error text,
        expires_at timestamptz NOT NULL,
        CHECK ((user_id IS NULL) <> (error IS NULL))
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity.sso_results');
    await runner.query('DROP TABLE identity.sso_attempts');
    await runner.query('DROP TABLE identity.sso_identities');
    await runner.query('DROP TABLE identity.sso_providers');
  }
}
