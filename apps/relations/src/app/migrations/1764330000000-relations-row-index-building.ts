import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A build is recorded as building before its first object is stored, so the objects of a build
 * whose process died (kill -9, power loss) are found and deleted once it is stale, instead of
 * staying in object storage for good.
 */
export class RelationsRowIndexBuilding1764330000000 implements MigrationInterface {
  name = 'RelationsRowIndexBuilding1764330000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE relations.row_indexes DROP CONSTRAINT row_indexes_status_check');
    await runner.query(
      `ALTER TABLE relations.row_indexes ADD CONSTRAINT row_indexes_status_check CHECK (status IN ('building', 'ready', 'failed', 'dropped'))`,
    );
    await runner.query(`CREATE INDEX relations_row_indexes_building ON relations.row_indexes (built_at) WHERE status = 'building'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX relations.relations_row_indexes_building');
    await runner.query(`DELETE FROM relations.row_indexes WHERE status = 'building'`);
    await runner.query('ALTER TABLE relations.row_indexes DROP CONSTRAINT row_indexes_status_check');
    await runner.query(`ALTER TABLE relations.row_indexes ADD CONSTRAINT row_indexes_status_check CHECK (status IN ('ready', 'failed', 'dropped'))`);
  }
}
