import 'reflect-metadata';
import { Client } from 'pg';
import { createMessagingMigration } from '@dc/messaging';
import { openServiceDataSource, startEmbeddedPostgres } from '@dc/persistence';
import { AppConfig, loadConfigOrExit } from '@dc/platform';
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
  const database = await databaseOf(config);
  const search = await openServiceDataSource({ url: database.url, schema: 'search', migrations: [createMessagingMigration('search'), ...SEARCH_MIGRATIONS], applicationName: 'dc-search-reindex' });
  const index = createSearchIndex({ ...config, DATABASE_URL: database.url });
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

/** DATABASE_URL, or the embedded PostgreSQL (the running product's, else started here and stopped after). */
async function databaseOf(config: AppConfig): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  // The embedded server's address and credentials, as @dc/persistence starts it for the product.
  const running = `postgres://postgres:embedded@127.0.0.1:${config.EMBEDDED_PG_PORT}/datacatalogue`;
  const probe = new Client({ connectionString: running });
  try {
    await probe.connect();
    return { url: running };
  } catch {
    const pg = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
    return { url: pg.url, stop: pg.stop };
  } finally {
    await probe.end().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
