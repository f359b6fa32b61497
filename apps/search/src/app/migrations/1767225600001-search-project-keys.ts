import { MigrationInterface, QueryRunner } from 'typeorm';
import { createEvent, IndexRebuildRequested } from '@dc/contracts';
import { Outbox } from '@dc/messaging';

/**
 * Projects are keyed by their own organisation in the index (record-document.ts projectKey), so the
 * Workspace's project filter lists a project to its organisation only. Documents indexed before
 * hold the old keys: an index that holds records asks the services to publish them again
 * (index.rebuild-requested, as `npm run reindex` does, but without emptying the index, so lists
 * keep working while each record is indexed again). A new database has nothing to rebuild. Its
 * timestamp sorts after the messaging tables' migration (1767225600000), whose outbox it writes to.
 */
export class SearchProjectKeys1767225600001 implements MigrationInterface {
  name = 'SearchProjectKeys1767225600001';

  async up(runner: QueryRunner): Promise<void> {
    const [indexed] = (await runner.query('SELECT 1 FROM search.record_versions LIMIT 1')) as unknown[];
    if (!indexed) return;
    await new Outbox('search').add(runner.manager, [createEvent(IndexRebuildRequested, 'search-index', { requestedAt: new Date().toISOString() })]);
  }

  async down(): Promise<void> {
    // Nothing to undo: the records were indexed again, under keys the older code reads as unknown projects.
  }
}
