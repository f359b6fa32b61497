import { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from './schema-name';

/**
 * The outbox and processed-events tables of one service schema. TypeORM takes the migration's
 * timestamp from the last 13 characters of its name, so the name ends with one; the schema in the
 * name keeps it unique when several services share one migrations table.
 */
export function createMessagingMigration(schema: string): new () => MigrationInterface {
  const s = quoteSchema(schema);
  return class MessagingTables implements MigrationInterface {
    readonly name = `MessagingTables_${schema}_1767225600000`;

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await queryRunner.query(`
        CREATE TABLE ${s}.outbox_events (
          id uuid PRIMARY KEY,
          -- relay order: the order rows were written in
          seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
          type text NOT NULL,
          version integer NOT NULL,
          key text NOT NULL,
          payload jsonb NOT NULL,
          envelope jsonb NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          published_at timestamptz NULL,
          attempts integer NOT NULL DEFAULT 0,
          last_error text NULL,
          -- set for a row that no longer validates: it can never be published, an operator must look
          rejected_at timestamptz NULL
        )`);
      await queryRunner.query(`CREATE INDEX outbox_events_pending ON ${s}.outbox_events (seq) WHERE published_at IS NULL AND rejected_at IS NULL`);
      await queryRunner.query(`
        CREATE TABLE ${s}.processed_events (
          consumer_group text NOT NULL,
          event_id uuid NOT NULL,
          processed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer_group, event_id)
        )`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE IF EXISTS ${s}.processed_events`);
      await queryRunner.query(`DROP TABLE IF EXISTS ${s}.outbox_events`);
    }
  };
}
