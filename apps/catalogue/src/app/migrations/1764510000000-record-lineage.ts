import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lineage (docs/metadata-before-access.md, "Lineage"): each derived record's links to every record
 * it was made from, flattened (a derivative of a derivative links to the original sources too), with
 * the terms its maker read each under; and the record's ownerOnly flag, set when a link's terms were
 * `open` or `grant`. A link goes with its derived record; a source may go first, so the link keeps
 * its name and does not reference it.
 */
export class CatalogueRecordLineage1764510000000 implements MigrationInterface {
  name = 'CatalogueRecordLineage1764510000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.records ADD COLUMN owner_only boolean NOT NULL DEFAULT false');
    await runner.query(`
      CREATE TABLE catalogue.record_lineage (
        derived_record_id uuid NOT NULL REFERENCES catalogue.records (id) ON DELETE CASCADE,
        source_record_id uuid NOT NULL,
        source_name text NOT NULL,
        maker_id text NOT NULL,
        terms text NOT NULL CHECK (terms IN ('own', 'public', 'open', 'grant')),
        -- grant only: the maker's approved request the source was read under
        request_id text NULL,
        -- inherited links: the derivative of the source this record was made from (null: read directly)
        via_record_id uuid NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz NULL,
        revoked_by text NULL
      )`);
    await runner.query(
      `CREATE UNIQUE INDEX record_lineage_link_idx ON catalogue.record_lineage (derived_record_id, source_record_id, terms, coalesce(request_id, ''))`,
    );
    await runner.query('CREATE INDEX record_lineage_source_idx ON catalogue.record_lineage (source_record_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.record_lineage');
    await runner.query('ALTER TABLE catalogue.records DROP COLUMN owner_only');
  }
}
