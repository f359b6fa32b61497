import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureServerBuild, freePort, type RunningProcess, startNode, waitForHttp } from '@dc/testing';

export interface EmbeddedProduct {
  /** Its private DATA_DIR (mkdtemp, as root starts it). */
  dataDir: string;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  app: RunningProcess;
  /** Stops the process (SIGTERM unless told) and removes its DATA_DIR. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The built product in embedded mode with its own DATA_DIR and embedded PostgreSQL, answered ready. */
export async function startEmbeddedProduct(name: string, env: Record<string, string> = {}): Promise<EmbeddedProduct> {
  ensureServerBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), `dc-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = startNode(name, 'dist/apps/gateway/src/main.js', { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), ...env });
  const stop = async (signal?: NodeJS.Signals) => {
    await app.stop(signal);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 180_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, port, base, app, stop };
}
