import { MigrationInterface, QueryRunner } from 'typeorm';

/** S3 accounts of users (spec section 3 Cloud account): the secret access key sealed with AES-256-GCM. */
export class CloudAccounts1764200000001 implements MigrationInterface {
  name = 'CloudAccounts1764200000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE catalogue.cloud_accounts (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        organisation_id text NOT NULL,
        access_key_id text NOT NULL,
        -- SecretCipher (ENCRYPTION_KEY), bound to the account's id; never returned
        sealed_secret text NOT NULL,
        -- '' for AWS itself, else an S3-compatible endpoint (MinIO, Ceph, ...)
        endpoint text NOT NULL DEFAULT '',
        region text NOT NULL DEFAULT 'us-east-1',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (owner_id, access_key_id, endpoint)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.cloud_accounts');
  }
}
