import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each record's best related records (top_related), scored from the sketches when they change and
 * published as relation.top-related: the scores kept per record (bounded), and the records whose
 * lists are due to be computed again.
 */
export class RelationsTopRelated1764320000000 implements MigrationInterface {
  name = 'RelationsTopRelated1764320000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE relations.related_scores (
      record_id text NOT NULL,
      related_id text NOT NULL,
      sem_score double precision NOT NULL,
      struct_score double precision NOT NULL,
      stats_score double precision NOT NULL,
      link_score double precision NOT NULL,
      total double precision NOT NULL,
      PRIMARY KEY (record_id, related_id)
    )`);
    await runner.query('CREATE INDEX relations_related_scores_related ON relations.related_scores (related_id)');
    await runner.query(`CREATE TABLE relations.related_pending (
      record_id text PRIMARY KEY,
      requested_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE relations.related_pending');
    await runner.query('DROP TABLE relations.related_scores');
  }
}
