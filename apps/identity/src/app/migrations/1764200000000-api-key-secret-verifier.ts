import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API secrets are shown once, at creation, and no longer read back: new pairs store a digest
 * (`s1.`), pairs made before keep their AES-GCM ciphertext (`v1.`) until their next use replaces it
 * with a digest. The column says what it holds for both: something to check a secret against.
 */
export class ApiKeySecretVerifier1764200000000 implements MigrationInterface {
  name = 'ApiKeySecretVerifier1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE identity.api_keys RENAME COLUMN secret_encrypted TO secret_verifier');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE identity.api_keys RENAME COLUMN secret_verifier TO secret_encrypted');
  }
}
