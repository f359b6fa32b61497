import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The time of the identity event each directory row was last written from, so an older event
 * arriving late never overwrites a newer state (null: only remembered from a caller's token).
 * updated_at keeps its meaning: when the catalogue learnt the row's state.
 */
export class CatalogueDirectoryEventOrder1764600000000 implements MigrationInterface {
  name = 'CatalogueDirectoryEventOrder1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.organisations ADD COLUMN event_at timestamptz NULL');
    await runner.query('ALTER TABLE catalogue.users ADD COLUMN event_at timestamptz NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.users DROP COLUMN event_at');
    await runner.query('ALTER TABLE catalogue.organisations DROP COLUMN event_at');
  }
}
