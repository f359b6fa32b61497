import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  describeInfra,
  freePort,
  healthCheck,
  kafkaBusEnv,
  KafkaMock,
  PODMAN,
  PRODUCT_IMAGE,
  REPO_ROOT,
  s3StorageEnv,
  startKafkaMock,
  startS3rver,
  TestDatabase,
  TestS3Server,
  waitForHttp,
  writableFolder,
} from '@dc/testing';
import { SERVICE_PORTS } from '@dc/platform';
import { ComposeProject, composeProject, ComposeService, parseComposeFile, podmanComposeReady, PRODUCT_SERVICES, ProductService } from './compose';
import { register } from './flows';

/** The ports docker-compose.yml gives the services (the services' own defaults). */
const FILE_PORTS: Record<ProductService, number> = { gateway: 8080, ...SERVICE_PORTS };
/** What docker-compose.yml makes every backend service wait for: infrastructure that cannot start here. */
const INFRASTRUCTURE = ['elasticsearch', 'kafka-topics', 'mailpit', 'minio-bucket', 'postgres'];

interface StandIns {
  kafka: KafkaMock;
  s3: TestS3Server;
  db: TestDatabase;
  ports: Record<ProductService, number>;
  dataDir: string;
}

/**
 * The product services of the parsed file, pointed at the stand-ins on this host: the host network
 * and free ports, the image the tests built, the infrastructure's endpoints replaced and the
 * dependencies on it dropped; read_only, tmpfs, healthcheck, restart and SERVICE stay as parsed.
 */
function onStandIns(parsed: Record<string, ComposeService>, image: string, standIns: StandIns): Record<string, ComposeService> {
  const { kafka, s3, db, ports, dataDir } = standIns;
  const url = (service: ProductService) => `http://127.0.0.1:${ports[service]}`;
  const services: Record<string, ComposeService> = {};
  for (const name of PRODUCT_SERVICES) {
    const { build: _build, ports: _ports, depends_on: dependsOn, environment, ...kept } = parsed[name];
    const env: Record<string, string | number | null> = { ...environment };
    // Elasticsearch and Mailpit: the distributed mode's defaults (PostgreSQL search, mail as files under DATA_DIR).
    for (const variable of ['SEARCH_DRIVER', 'ELASTICSEARCH_URL', 'MAIL_DRIVER', 'SMTP_URL']) delete env[variable];
    for (const variable of Object.keys(env).filter((v) => v.startsWith('SERVICE_URLS_'))) {
      const target = variable.slice('SERVICE_URLS_'.length).toLowerCase() as ProductService;
      env[variable] = url(target);
    }
    Object.assign(env, kafkaBusEnv(kafka), s3StorageEnv(s3), { PORT: ports[name], PUBLIC_URL: url('gateway'), DATA_DIR: dataDir });
    if (name !== 'gateway') env.DATABASE_URL = db.url;
    services[name] = {
      ...kept,
      image,
      network_mode: 'host',
      environment: env,
      volumes: [`${dataDir}:${dataDir}`],
      depends_on: Object.fromEntries(Object.entries(dependsOn ?? {}).filter(([dependency]) => !INFRASTRUCTURE.includes(dependency))),
    };
  }
  return services;
}

const inspect = (container: string) => JSON.parse(execFileSync('podman', [...PODMAN, 'inspect', container], { encoding: 'utf8' }))[0];

/**
 * docker-compose.yml through a real compose implementation (Debian's podman-compose): parsed as it
 * is, then its seven product services started by `podman-compose up` from the image the tests built,
 * over the stand-ins for the infrastructure no registry here serves.
 */
export function composeTests(image = PRODUCT_IMAGE): void {
  describeInfra('docker-compose.yml with podman-compose', podmanComposeReady(), () => composeSuites(image));
}

function composeSuites(image: string): void {
  const parsed = () => parseComposeFile(path.join(REPO_ROOT, 'docker-compose.yml'));

  describe('docker-compose.yml, parsed by podman-compose', () => {
    it('holds the seven product services on the one image, read-only, with the health check and SERVICE and PORT of each', () => {
      const { services } = parsed();
      const shape = (name: ProductService) => {
        const service = services[name];
        return {
          image: service.image,
          read_only: service.read_only,
          tmpfs: service.tmpfs,
          healthcheck: service.healthcheck?.test,
          SERVICE: service.environment?.SERVICE,
          PORT: service.environment?.PORT,
        };
      };
      const expected = (name: ProductService) => ({
        image: 'data-catalogue:dev',
        read_only: true,
        tmpfs: ['/tmp'],
        healthcheck: ['CMD', 'node', 'deploy/healthcheck.mjs'],
        SERVICE: name,
        PORT: FILE_PORTS[name],
      });
      expect(PRODUCT_SERVICES.map(shape)).toEqual(PRODUCT_SERVICES.map(expected));
    });

    it("points the gateway at each service's own port, each service at its own database role, and every service at the infrastructure", () => {
      const { services } = parsed();
      const gateway = services.gateway.environment!;
      for (const name of PRODUCT_SERVICES.filter((s) => s !== 'gateway')) {
        const env = services[name].environment!;
        expect(gateway[`SERVICE_URLS_${name.toUpperCase()}`]).toBe(`http://${name}:${env.PORT}`);
        expect(String(env.DATABASE_URL)).toMatch(new RegExp(`^postgres://${name}:[^@]+@postgres:5432/datacatalogue$`));
        expect(Object.keys(services[name].depends_on ?? {}).sort()).toEqual(INFRASTRUCTURE);
        expect(INFRASTRUCTURE.every((dependency) => dependency in services)).toBe(true);
      }
      expect(Object.keys(services.gateway.depends_on ?? {}).sort()).toEqual(PRODUCT_SERVICES.filter((s) => s !== 'gateway').sort());
    });
  });

  describe("docker-compose.yml's seven product services, started by podman-compose over stand-ins", () => {
    let standIns: StandIns;
    let project: ComposeProject;
    let folder: string;

    beforeAll(async () => {
      folder = mkdtempSync(path.join(tmpdir(), 'dc-compose-'));
      const [kafka, s3, db] = await Promise.all([startKafkaMock(), startS3rver(), createTestDatabase('dc_compose')]);
      const ports = Object.fromEntries(await Promise.all(PRODUCT_SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<ProductService, number>;
      standIns = { kafka, s3, db, ports, dataDir: writableFolder(path.join(folder, 'data')) };
      project = composeProject(`dc-compose-${randomBytes(4).toString('hex')}`, folder, onStandIns(parsed().services, image, standIns));
      const started = Date.now();
      await project.run(['up', '-d', '--no-build']);
      await Promise.all(PRODUCT_SERVICES.map((s) => waitForHttp(`http://127.0.0.1:${ports[s]}/health/ready`, { timeoutMs: 300_000 })));
      console.log(`podman-compose up: the seven services ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 420_000);

    afterAll(async () => {
      if (project?.containers().length) await project.run(['down']);
      await Promise.all([standIns?.kafka.stop(), standIns?.s3.stop(), standIns?.db.drop()]);
      if (folder) rmSync(folder, { recursive: true, force: true });
    }, 300_000);

    const container = (service: ProductService) => `${project.name}_${service}_1`;

    it('runs each as compose asks: host network, read-only root file system, tmpfs /tmp, restart unless-stopped, its SERVICE', () => {
      const seen = PRODUCT_SERVICES.map((service) => {
        const config = inspect(container(service));
        return {
          network: config.HostConfig.NetworkMode,
          readOnly: config.HostConfig.ReadonlyRootfs,
          // podman adds /run and /var/tmp of its own to a read-only container.
          tmpfsTmp: '/tmp' in (config.HostConfig.Tmpfs ?? {}),
          restart: config.HostConfig.RestartPolicy.Name,
          service: (config.Config.Env as string[]).find((e) => e.startsWith('SERVICE=')),
        };
      });
      expect(seen).toEqual(
        PRODUCT_SERVICES.map((service) => ({ network: 'host', readOnly: true, tmpfsTmp: true, restart: 'unless-stopped', service: `SERVICE=${service}` })),
      );
    });

    it('passes the health check compose gives each container (podman healthcheck run, as many tries as its retries)', async () => {
      const results: Array<[ProductService, string]> = [];
      const { services } = parsed();
      for (const service of PRODUCT_SERVICES) results.push([service, await healthCheck(container(service), services[service].healthcheck!.retries!)]);
      expect(results).toEqual(PRODUCT_SERVICES.map((service) => [service, 'healthy']));
    }, 120_000);

    it('answers through the gateway: a sign-up, then the public record list', async () => {
      const gateway = `http://127.0.0.1:${standIns.ports.gateway}`;
      expect((await register(gateway, 'compose-user', 'compose-password-1')).status).toBe(201);
      const records = await fetch(`${gateway}/api/recordsannon/`);
      expect(records.status).toBe(200);
    });

    it('takes every container of the project away with podman-compose down', async () => {
      expect(project.containers()).toHaveLength(PRODUCT_SERVICES.length);
      await project.run(['down']);
      expect(project.containers()).toEqual([]);
    }, 300_000);
  });
}
