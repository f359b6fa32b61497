import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data sharing: access policies and projects (groups) of an organisation, and the projection of the
 * requests service's request events that decides who holds a grant (request.created, request.updated).
 */
export class CatalogueSharing1764300000000 implements MigrationInterface {
  name = 'CatalogueSharing1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE catalogue.policies (
        id uuid PRIMARY KEY,
        organisation_id text NOT NULL,
        owner_id text NOT NULL,
        name text NOT NULL,
        -- requirement rows: [{topic, requirement, agree}]
        fields jsonb NOT NULL DEFAULT '[]',
        version int NOT NULL DEFAULT 1,
        created timestamptz NOT NULL DEFAULT now(),
        changed timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX policies_organisation_idx ON catalogue.policies (organisation_id, created)');
    await runner.query(`
      CREATE TABLE catalogue.groups (
        id uuid PRIMARY KEY,
        organisation_id text NOT NULL,
        owner_id text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        -- extra label/text pairs, in order: [{label, text}]
        fields jsonb NOT NULL DEFAULT '[]',
        created timestamptz NOT NULL DEFAULT now(),
        changed timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query('CREATE INDEX groups_organisation_idx ON catalogue.groups (organisation_id, created)');
    await runner.query('CREATE INDEX records_group_ids_idx ON catalogue.records USING gin (group_ids)');
    await runner.query('CREATE INDEX records_policy_idx ON catalogue.records (policy_id) WHERE policy_id IS NOT NULL');
    await runner.query(`
      CREATE TABLE catalogue.request_grants (
        request_id uuid PRIMARY KEY,
        record_id uuid NOT NULL,
        requestor_id text NOT NULL,
        status text NOT NULL,
        expires_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        version int NOT NULL
      )`);
    await runner.query('CREATE INDEX request_grants_pair_idx ON catalogue.request_grants (record_id, requestor_id, created_at DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.request_grants');
    await runner.query('DROP INDEX catalogue.records_policy_idx');
    await runner.query('DROP INDEX catalogue.records_group_ids_idx');
    await runner.query('DROP TABLE catalogue.groups');
    await runner.query('DROP TABLE catalogue.policies');
  }
}
