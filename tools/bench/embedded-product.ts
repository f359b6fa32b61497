import { randomBytes } from 'node:crypto';
import { freePort, type RunningProcess, startNode, waitForHttp } from '@dc/testing';

export interface EmbeddedProduct {
  /** http://127.0.0.1:<port> */
  base: string;
  product: RunningProcess;
  /** Its process id, for the memory and CPU probes. */
  pid: number;
}

/**
 * The built product in embedded mode (`dist/`, `buildServer()` first) on a free port, answered
 * ready: what every benchmark drives through its API. `env` adds to or overrides the defaults.
 */
export async function startEmbeddedProduct(databaseUrl: string, dataDir: string, env: Record<string, string> = {}): Promise<EmbeddedProduct> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const product = startNode('embedded', 'dist/apps/gateway/src/main.js', {
    RUN_MODE: 'embedded',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
  try {
    await waitForHttp(`${base}/health/ready`, { process: product, timeoutMs: 120_000 });
  } catch (error) {
    await product.stop();
    throw error;
  }
  return { base, product, pid: product.process.pid! };
}
