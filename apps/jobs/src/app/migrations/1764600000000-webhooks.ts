import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed webhooks (docs/webhooks.md): the endpoints Data Admins register for their organisation,
 * the delivery outbox (one row per event and endpoint, written in the transaction that consumed
 * the event, sent by the delivery loop), and which organisations each request and job concerns
 * (request.message-posted and job.completed do not say).
 */
export class Webhooks1764600000000 implements MigrationInterface {
  name = 'Webhooks1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE jobs.webhook_endpoints (
      id text PRIMARY KEY,
      organisation_id text NOT NULL,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      event_types text[] NOT NULL,
      active boolean NOT NULL DEFAULT true,
      -- SecretCipher (ENCRYPTION_KEY), bound to the endpoint's id; shown once, never returned again
      secret_sealed text NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query('CREATE INDEX webhook_endpoints_organisation ON jobs.webhook_endpoints (organisation_id, created_at)');
    await runner.query(`CREATE TABLE jobs.webhook_deliveries (
      id text PRIMARY KEY,
      endpoint_id text NOT NULL REFERENCES jobs.webhook_endpoints (id) ON DELETE CASCADE,
      event_id text NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts int NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      -- A claim: the process sending it holds it until then; a killed process's claim runs out.
      locked_until timestamptz NULL,
      last_status_code int NULL,
      last_error text NULL,
      last_attempt_at timestamptz NULL,
      delivered_at timestamptz NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (endpoint_id, event_id)
    )`);
    await runner.query(`CREATE INDEX webhook_deliveries_due ON jobs.webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await runner.query('CREATE INDEX webhook_deliveries_endpoint ON jobs.webhook_deliveries (endpoint_id, created_at DESC)');
    await runner.query(`CREATE TABLE jobs.webhook_parties (
      subject_id text PRIMARY KEY,
      organisation_ids text[] NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE jobs.webhook_parties');
    await runner.query('DROP TABLE jobs.webhook_deliveries');
    await runner.query('DROP TABLE jobs.webhook_endpoints');
  }
}
