import { createMessagingMigration } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import { createTestDatabase, describeInfra, type TestDatabase } from '@dc/testing';
import { SEARCH_MIGRATIONS } from './index';

const BEFORE = SEARCH_MIGRATIONS.filter((m) => m.name !== 'SearchProjectKeys1767225600001');

describeInfra('search migration: projects keyed by their organisation (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase('dc_search_project_keys');
  });
  afterEach(async () => {
    await db?.drop();
  });

  const open = (migrations: typeof SEARCH_MIGRATIONS) =>
    openServiceDataSource({ url: db.url, schema: 'search', migrations: [createMessagingMigration('search'), ...migrations] });
  const rebuildsAsked = async (source: Awaited<ReturnType<typeof open>>) =>
    Number((await source.query(`SELECT count(*) FROM search.outbox_events WHERE type = 'index.rebuild-requested'`))[0].count);

  it('asks for the records again when the index holds some (an upgrade), so they are keyed anew', async () => {
    const before = await open(BEFORE);
    await before.query(`INSERT INTO search.record_versions (id, owner_id, organisation_id, occurred_at) VALUES ('r-1', 'u-1', 'o-1', now())`);
    await before.destroy();
    const after = await open(SEARCH_MIGRATIONS);
    expect(await rebuildsAsked(after)).toBe(1);
    await after.destroy();
  });

  it('asks nothing of a new database', async () => {
    const fresh = await open(SEARCH_MIGRATIONS);
    expect(await rebuildsAsked(fresh)).toBe(0);
    await fresh.destroy();
  });
});
