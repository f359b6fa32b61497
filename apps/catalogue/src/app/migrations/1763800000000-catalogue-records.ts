import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records, their files and extraction queue, and the catalogue's projection of identity's users
 * and organisations (owner names and client types, fed by user.* and organisation.* events).
 * Ids that come from identity are text, as its events carry them.
 */
export class CatalogueRecords1763800000000 implements MigrationInterface {
  name = 'CatalogueRecords1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE catalogue.organisations (
        id text PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE catalogue.users (
        id text PRIMARY KEY,
        username text NOT NULL,
        organisation_id text NOT NULL,
        client_type text NOT NULL CHECK (client_type IN ('STANDARD', 'BASIC')),
        active boolean NOT NULL DEFAULT false,
        deleted boolean NOT NULL DEFAULT false,
        groups int[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX users_organisation_idx ON catalogue.users (organisation_id)');

    await runner.query(`
      CREATE TABLE catalogue.records (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        alt_name text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        provenance text NOT NULL DEFAULT '',
        source text NOT NULL DEFAULT '',
        owner_id text NOT NULL,
        organisation_id text NOT NULL,
        origin text NOT NULL,
        type text NOT NULL,
        size bigint NOT NULL DEFAULT 0,
        version int NOT NULL DEFAULT 1,
        date_created timestamptz NOT NULL DEFAULT now(),
        date_changed timestamptz NOT NULL DEFAULT now(),
        visibility text NOT NULL DEFAULT 'PR' CHECK (visibility IN ('PR', 'EV', 'CU')),
        -- the id of the record's visibility object (GET/POST/PUT /api/visibilities/)
        visibility_id uuid NOT NULL UNIQUE,
        shared_user_ids text[] NOT NULL DEFAULT '{}',
        shared_organisation_ids text[] NOT NULL DEFAULT '{}',
        policy_id uuid NULL,
        access text NOT NULL DEFAULT 'RE' CHECK (access IN ('RE', 'OP')),
        access_fee numeric(14, 2) NULL CHECK (access_fee >= 0),
        currency text NOT NULL DEFAULT 'CAD',
        record_fields jsonb NOT NULL DEFAULT '[]',
        extract_option text NOT NULL DEFAULT 'metadata' CHECK (extract_option IN ('minimal', 'metadata', 'samples')),
        extract_from_url boolean NOT NULL DEFAULT false,
        delete_file boolean NOT NULL DEFAULT false,
        group_ids text[] NOT NULL DEFAULT '{}'
      )`);
    await runner.query('CREATE INDEX records_organisation_idx ON catalogue.records (organisation_id)');
    await runner.query('CREATE INDEX records_owner_idx ON catalogue.records (owner_id)');

    await runner.query(`
      CREATE TABLE catalogue.files (
        id uuid PRIMARY KEY,
        record_id uuid NOT NULL REFERENCES catalogue.records(id) ON DELETE CASCADE,
        -- the owner's organisation, for duplicate detection by checksum within it
        organisation_id text NOT NULL,
        name text NOT NULL,
        content_type text NOT NULL,
        size bigint NOT NULL,
        checksum text NOT NULL,
        -- null once the object was deleted after extraction (deleteFile)
        storage_key text NULL,
        meta jsonb NULL,
        extraction_status text NOT NULL DEFAULT 'pending' CHECK (extraction_status IN ('pending', 'running', 'done', 'failed', 'skipped')),
        attempts int NOT NULL DEFAULT 0,
        error text NULL,
        -- the running worker's claim: its token, and the heartbeat that keeps the claim alive
        claim_token uuid NULL,
        heartbeat_at timestamptz NULL,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        extracted_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX files_record_idx ON catalogue.files (record_id, created_at)');
    await runner.query('CREATE INDEX files_checksum_idx ON catalogue.files (organisation_id, checksum)');
    await runner.query(`CREATE INDEX files_extraction_queue_idx ON catalogue.files (next_attempt_at) WHERE extraction_status IN ('pending', 'running')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.files');
    await runner.query('DROP TABLE catalogue.records');
    await runner.query('DROP TABLE catalogue.users');
    await runner.query('DROP TABLE catalogue.organisations');
  }
}
