import { Client } from 'pg';
import { startEmbeddedPostgres } from '@dc/persistence';
import type { AppConfig } from '../config/config';

/**
 * The database a maintenance command (reindex, audit:verify) works on: DATABASE_URL, or in embedded
 * mode the running product's embedded PostgreSQL, or, when the product is stopped, the embedded
 * PostgreSQL under DATA_DIR started for the moment the command takes (`stop` is then set).
 */
export async function scriptDatabase(config: AppConfig): Promise<{ url: string; stop?: () => Promise<void> }> {
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
