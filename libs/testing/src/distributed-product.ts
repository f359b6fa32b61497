import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { KafkaMock, kafkaBusEnv, startKafkaMock } from './kafka';
import { createTestDatabase, TestDatabase } from './postgres';
import { startContainer, writableFolder } from './containers';
import { ensureServerBuild, freePort, RunningProcess, startNode, waitForHttp } from './process';
import { s3StorageEnv, startS3rver, TestS3Server } from './s3';

export const SERVICES = ['identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Starts one service (gateway, identity, ...) under a name, with its environment (PORT among it). */
export type ServiceLauncher = (name: string, service: 'gateway' | ServiceName, env: Record<string, string>) => RunningProcess;

/** Each service as a Node process of dist/ (built first when missing). */
export const asProcesses: ServiceLauncher = (name, service, env) => {
  ensureServerBuild();
  return startNode(name, `dist/apps/${service}/src/main.js`, env);
};

/**
 * Each service as a container of the product's image (deploy/Dockerfile), on the host network with
 * a read-only root file system, as compose and k8s run it; DATA_DIR is mounted from the host so the
 * tests read the mails the services write.
 */
export const asContainers =
  (image: string): ServiceLauncher =>
  (name, service, env) =>
    startContainer(name, image, { ...env, SERVICE: service }, { volumes: { [writableFolder(env.DATA_DIR)]: env.DATA_DIR } });

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
  /** Starts one more service the way the others were started (a second jobs worker, say) and waits until it is ready. */
  startService(name: string, service: ServiceName, port: number): Promise<RunningProcess>;
  stop(): Promise<void>;
}

/**
 * The distributed mode on this machine: the gateway and six services as separate processes, the
 * Kafka protocol through librdkafka's mock cluster, S3 through s3rver, and real PostgreSQL; resolves
 * once every process reports ready.
 */
export async function startDistributedProduct(
  databasePrefix: string,
  gatewayEnv: Record<string, string> = {},
  launch: ServiceLauncher = asProcesses,
): Promise<DistributedProduct> {
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
  const processes = SERVICES.map((service) => launch(service, service, { ...common, PORT: String(ports[service]) }));
  const serviceUrls = Object.fromEntries(SERVICES.map((s) => [`SERVICE_URLS_${s.toUpperCase()}`, `http://127.0.0.1:${ports[s]}`]));
  processes.push(launch('gateway', 'gateway', { ...common, ...serviceUrls, ...gatewayEnv, PORT: String(gatewayPort) }));
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
  const startService = async (name: string, service: ServiceName, port: number) => {
    const started = launch(name, service, { ...common, PORT: String(port) });
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, { process: started, timeoutMs: 300_000 });
    return started;
  };
  return { gatewayUrl, ports, processes, db, kafka, s3, mailDir: path.join(dataDir, 'mail'), env: common, startService, stop };
}
