import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, type RunningProcess, startNode, waitForHttp } from './process';

export interface EmbeddedProduct {
  dataDir: string;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  app: RunningProcess;
  /** Its process id, for memory and CPU probes. */
  pid: number;
  /** Stops the process (SIGTERM unless told) and removes the DATA_DIR made here. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The built product (`dist/`: ensureServerBuild or buildServer first) in embedded mode on a free
 * port, answered ready: what the gateway's end-to-end suites and the benchmarks drive. Without a
 * DATA_DIR in `env` it gets a private one (mkdtemp), removed at stop; without a DATABASE_URL it runs
 * its own PostgreSQL there. `env` may depend on the address (e.g. PUBLIC_URL).
 */
export async function startEmbeddedProduct(
  name: string,
  env: Record<string, string> | ((base: string) => Record<string, string>) = {},
): Promise<EmbeddedProduct> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const given = typeof env === 'function' ? env(base) : env;
  const dataDir = given.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), `dc-${name}-`));
  const embeddedPostgres: Record<string, string> = given.DATABASE_URL ? {} : { EMBEDDED_PG_PORT: String(await freePort()) };
  const app = startNode(name, 'dist/apps/gateway/src/main.js', { DATA_DIR: dataDir, PORT: String(port), ...embeddedPostgres, ...given });
  const stop = async (signal?: NodeJS.Signals) => {
    await app.stop(signal);
    if (!given.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 180_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, port, base, app, pid: app.process.pid!, stop };
}
