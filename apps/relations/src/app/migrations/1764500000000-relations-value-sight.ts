import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What relations needs to keep values out of figures a caller may not compute themselves
 * (docs/metadata-before-access.md, "Relations"): whether a record is its owner's alone and the
 * terms of the sources it was derived from (lineage), and which indexed value hashes belong to
 * hashed columns (those stay comparable for everyone). Every kept top_related list was computed
 * with values that may not be shown to every viewer: all are computed again.
 */
export class RelationsValueSight1764500000000 implements MigrationInterface {
  name = 'RelationsValueSight1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE relations.records ADD COLUMN owner_only boolean NOT NULL DEFAULT false');
    await runner.query(`ALTER TABLE relations.records ADD COLUMN derived_from jsonb NOT NULL DEFAULT '[]'`);
    await runner.query('ALTER TABLE relations.column_tokens ADD COLUMN hashed boolean NOT NULL DEFAULT false');
    await runner.query(
      `UPDATE relations.column_tokens t SET hashed = true FROM relations.file_sketches s,
         jsonb_array_elements(s.tables) WITH ORDINALITY AS tab(body, position), jsonb_array_elements(tab.body->'columns') AS col(body)
       WHERE s.file_id = t.file_id AND t.table_index = tab.position - 1 AND t.column_index = (col.body->>'index')::int AND col.body->>'privacy' = 'hashed'`,
    );
    await runner.query(
      `INSERT INTO relations.related_pending (record_id, requested_at) SELECT record_id, clock_timestamp() FROM relations.records WHERE NOT deleted
       ON CONFLICT (record_id) DO UPDATE SET requested_at = EXCLUDED.requested_at`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE relations.column_tokens DROP COLUMN hashed');
    await runner.query('ALTER TABLE relations.records DROP COLUMN derived_from');
    await runner.query('ALTER TABLE relations.records DROP COLUMN owner_only');
  }
}
