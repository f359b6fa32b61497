import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue's projection of relation.top-related: each record's best related records as the
 * relations service scored them (bounded), filtered for each viewer when a record is read. Goes with
 * its record.
 */
export class CatalogueTopRelated1764320000000 implements MigrationInterface {
  name = 'CatalogueTopRelated1764320000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE catalogue.top_related (
      record_id uuid PRIMARY KEY REFERENCES catalogue.records (id) ON DELETE CASCADE,
      related jsonb NOT NULL,
      occurred_at timestamptz NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.top_related');
  }
}
