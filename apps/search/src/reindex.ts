import 'reflect-metadata';
import { createMessagingMigration } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import { loadConfigOrExit, scriptDatabase } from '@dc/platform';
import { SEARCH_MIGRATIONS } from './app/migrations';
import { requestIndexRebuild } from './app/reindex/index-rebuild';
import { createSearchIndex } from './app/search-index.provider';

/**
 * `npm run reindex`: rebuilds the search index from scratch (see index-rebuild.ts). Reads the same
 * configuration as the services. In embedded mode without DATABASE_URL it uses the embedded
 * PostgreSQL, the running product's or, when the product is stopped, its own for the moment it takes.
 */
async function main() {
  const config = loadConfigOrExit();
  const database = await scriptDatabase(config);
  const search = await openServiceDataSource({
    url: database.url,
    schema: 'search',
    migrations: [createMessagingMigration('search'), ...SEARCH_MIGRATIONS],
    applicationName: 'dc-search-reindex',
  });
  const index = createSearchIndex({ ...config, DATABASE_URL: database.url }, { loadOnInit: false });
  try {
    await index.init();
    const event = await requestIndexRebuild(index, search);
    console.log(`The search index is empty; rebuild requested (event ${event.id}).`);
    console.log(
      database.stop
        ? 'The product is not running: the catalogue and identity re-publish their records, organisations and users when it starts.'
        : 'The catalogue and identity now re-publish their records, organisations and users; the index fills up as the search service applies them.',
    );
  } finally {
    await index.close();
    await search.destroy();
    await database.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
