import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * DCAT imports (harvest/): which record each imported dataset became in the importing organisation
 * (a re-import updates it, never duplicates), and the imports themselves, written down before they
 * start so that one interrupted by a restart is taken up again (holder: the catalogue instance
 * running it, see recovery/catalogue-instance.ts).
 */
export class CatalogueHarvests1764800000000 implements MigrationInterface {
  name = 'CatalogueHarvests1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE catalogue.harvested_datasets (
        organisation_id text NOT NULL,
        source_iri text NOT NULL,
        record_id uuid NOT NULL,
        harvested_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organisation_id, source_iri)
      )`);
    await runner.query(`
      CREATE TABLE catalogue.harvest_jobs (
        job_id uuid PRIMARY KEY,
        owner jsonb NOT NULL,
        source text NOT NULL,
        datasets jsonb NOT NULL,
        done integer NOT NULL DEFAULT 0,
        outcome jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        holder text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz NULL
      )`);
    await runner.query(`CREATE INDEX harvest_jobs_running ON catalogue.harvest_jobs (holder) WHERE status = 'running'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE catalogue.harvest_jobs');
    await runner.query('DROP TABLE catalogue.harvested_datasets');
  }
}
