import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Crash recovery (kill -9, power loss). pending_objects lists every stored object that no file row
 * owns yet (an upload being received) or any more (a deleted file whose object is still to be
 * removed), with the catalogue instance responsible for it; once that instance is gone, a sweep
 * deletes the object. files.claimed_by names the instance running an extraction, so a restarted
 * product takes back its own interrupted extractions at once instead of after the lease.
 */
export class CatalogueCrashRecovery1764400000000 implements MigrationInterface {
  name = 'CatalogueCrashRecovery1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE catalogue.pending_objects (
      storage_key text PRIMARY KEY,
      -- the catalogue instance (CatalogueInstance.id) that stores or deletes the object
      holder uuid NOT NULL,
      reason text NOT NULL CHECK (reason IN ('upload', 'delete')),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query('ALTER TABLE catalogue.files ADD COLUMN claimed_by uuid NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE catalogue.files DROP COLUMN claimed_by');
    await runner.query('DROP TABLE catalogue.pending_objects');
  }
}
