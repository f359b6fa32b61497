import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { KafkaMock, kafkaBusEnv, startKafkaMock } from './kafka';
import { createTestDatabase, TestDatabase } from './postgres';
import { ensureServerBuild, freePort, RunningProcess, startNode, waitForHttp } from './process';
import { s3StorageEnv, startS3rver, TestS3Server } from './s3';

export const SERVICES = ['identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface DistributedProduct {
  gatewayUrl: string;
  /** Where each service listens, for calls that bypass the gateway. */
  ports: Record<ServiceName, number>;
  processes: RunningProcess[];
  db: TestDatabase;
  kafka: KafkaMock;
  s3: TestS3Server;
  /** Where the file mailer writes (the services' DATA_DIR/mail). */
  mailDir: string;
  /** The environment every service process got, apart from its PORT. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The distributed mode on this machine: the gateway and six services as separate processes, the
 * Kafka protocol through librdkafka's mock cluster, S3 through s3rver, and real PostgreSQL; resolves
 * once every process reports ready.
 */
export async function startDistributedProduct(databasePrefix: string, gatewayEnv: Record<string, string> = {}): Promise<DistributedProduct> {
  ensureServerBuild();
  const [db, kafka, s3] = await Promise.all([createTestDatabase(databasePrefix), startKafkaMock(), startS3rver()]);
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<ServiceName, number>;
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const dataDir = `/tmp/${db.name}`;
  const common: Record<string, string> = {
    RUN_MODE: 'distributed',
    PUBLIC_URL: gatewayUrl,
    DATABASE_URL: db.url,
    ...kafkaBusEnv(kafka),
    ...s3StorageEnv(s3),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  const processes = SERVICES.map((service) => startNode(service, `dist/apps/${service}/src/main.js`, { ...common, PORT: String(ports[service]) }));
  const serviceUrls = Object.fromEntries(SERVICES.map((s) => [`SERVICE_URLS_${s.toUpperCase()}`, `http://127.0.0.1:${ports[s]}`]));
  processes.push(startNode('gateway', 'dist/apps/gateway/src/main.js', { ...common, ...serviceUrls, ...gatewayEnv, PORT: String(gatewayPort) }));
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all([kafka.stop(), s3.stop()]);
    await db.drop();
  };
  try {
    await Promise.all(
      processes.map((p) =>
        waitForHttp(`http://127.0.0.1:${p.name === 'gateway' ? gatewayPort : ports[p.name as ServiceName]}/health/ready`, { process: p, timeoutMs: 300_000 }),
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl, ports, processes, db, kafka, s3, mailDir: path.join(dataDir, 'mail'), env: common, stop };
}
