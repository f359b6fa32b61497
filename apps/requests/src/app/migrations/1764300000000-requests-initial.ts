import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access requests, their policy answers, message threads and the hash-chained audit trail; and the
 * projections the service keeps of others' data: records (owner, organisation, name, policy,
 * access, visibility) from record.*, policies from policy.*, users and organisations from identity.
 */
export class RequestsInitial1764300000000 implements MigrationInterface {
  name = 'RequestsInitial1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE requests.organisations (
        id text PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL DEFAULT ''
      )`);
    await runner.query(`
      CREATE TABLE requests.users (
        id text PRIMARY KEY,
        username text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        email text NOT NULL DEFAULT '',
        organisation_id text NOT NULL,
        groups int[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await runner.query('CREATE INDEX users_organisation_idx ON requests.users (organisation_id)');
    await runner.query(`
      CREATE TABLE requests.records (
        id text PRIMARY KEY,
        name text NOT NULL,
        owner_id text NOT NULL,
        organisation_id text NOT NULL,
        policy_id text NULL,
        access text NOT NULL,
        visibility text NOT NULL,
        shared_user_ids text[] NOT NULL DEFAULT '{}',
        shared_organisation_ids text[] NOT NULL DEFAULT '{}',
        deleted boolean NOT NULL DEFAULT false,
        -- the event this state came from (its occurredAt): older events change nothing
        occurred_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE requests.policies (
        id text PRIMARY KEY,
        organisation_id text NOT NULL,
        name text NOT NULL,
        fields jsonb NOT NULL,
        version int NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await runner.query(`
      CREATE TABLE requests.requests (
        id uuid PRIMARY KEY,
        record_id text NOT NULL,
        requestor_id text NOT NULL,
        requestor_organisation_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('new', 'sent', 'review', 'approved', 'disapproved', 'closed', 'revoked')),
        purpose text NOT NULL DEFAULT '',
        note text NOT NULL DEFAULT '',
        -- the record's policy when the request was opened, with the requestor's answers
        access_policies jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        changed_at timestamptz NOT NULL,
        sent_at timestamptz NULL,
        decided_at timestamptz NULL,
        decided_by text NULL,
        expires_at timestamptz NULL,
        revoked_at timestamptz NULL,
        revoke_reason text NULL,
        version int NOT NULL DEFAULT 1
      )`);
    // One open request per requestor and record: a closed one no longer counts.
    await runner.query(`CREATE UNIQUE INDEX requests_one_open_idx ON requests.requests (record_id, requestor_id) WHERE status <> 'closed'`);
    await runner.query('CREATE INDEX requests_requestor_idx ON requests.requests (requestor_id, created_at DESC)');
    await runner.query('CREATE INDEX requests_record_idx ON requests.requests (record_id, created_at DESC)');
    await runner.query(`
      CREATE TABLE requests.messages (
        id uuid PRIMARY KEY,
        request_id uuid NOT NULL REFERENCES requests.requests(id),
        user_id text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX messages_request_idx ON requests.messages (request_id, created_at, id)');
    await runner.query(`
      CREATE TABLE requests.audit_log (
        seq bigint PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        request_id uuid NOT NULL,
        record_id text NOT NULL,
        actor_id text NOT NULL,
        action text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}',
        occurred_at timestamptz NOT NULL,
        -- hash of the entry before (64 zeros for the first), and of this entry with it
        prev_hash text NOT NULL,
        hash text NOT NULL
      )`);
    await runner.query('CREATE INDEX audit_log_record_idx ON requests.audit_log (record_id, seq)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['audit_log', 'messages', 'requests', 'policies', 'records', 'users', 'organisations'])
      await runner.query(`DROP TABLE requests.${table}`);
  }
}
