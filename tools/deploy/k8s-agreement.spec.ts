// The rendered k8s/ objects agree with what they run: the image deploy/Dockerfile builds (user,
// ports, health check, the variables it reads) and the services' configuration schema
// (libs/platform config.ts): every variable the manifests set is one the product knows, and the
// environment each service gets is one its start-up check accepts.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from '@dc/platform';
import { describeInfra } from '@dc/testing';
import { FORM_LIMITS } from '../../apps/catalogue/src/app/uploads/busboy-multipart';
import { MERGE_ENGINE_SETTINGS } from '../../apps/jobs/src/app/worker/merge-engine-settings';
import { DRIVERS, root } from './deploy-contract';
import { byKind, type Container, type KubeObject, KUSTOMIZATIONS, kubectlAvailable, kustomize, named, podSpec, quantity } from './k8s-manifests';

/** The users of the official node image the Dockerfile may name in USER. */
const IMAGE_USERS: Record<string, number> = { node: 1000 };

/** deploy/Dockerfile's last (runtime) stage: keyword and arguments, continuation lines joined, comments dropped. */
function runtimeStage(): { keyword: string; args: string }[] {
  const text = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8').replace(/\\\r?\n/g, ' ');
  const instructions = text
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'))
    .map((line) => {
      const [, keyword, args] = /^\s*(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
      return { keyword: keyword.toUpperCase(), args: args.trim() };
    });
  return instructions.slice(instructions.map((instruction) => instruction.keyword).lastIndexOf('FROM') + 1);
}

function image() {
  const stage = runtimeStage();
  const all = (keyword: string) => stage.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
  const user = all('USER').at(-1) ?? 'root';
  const healthcheck = JSON.parse((all('HEALTHCHECK').at(-1) ?? '').replace(/^.*?CMD\s+/, '')) as string[];
  return {
    uid: /^\d+$/.test(user) ? Number(user) : IMAGE_USERS[user],
    ports: all('EXPOSE').flatMap((args) => args.split(/\s+/).map((port) => Number(port.replace(/\/tcp$/, '')))),
    env: all('ENV').flatMap((args) => [...args.matchAll(/(\w+)=/g)].map((match) => match[1])),
    cmd: all('CMD').at(-1) ?? '',
    healthcheck,
  };
}

/** The path the image's HEALTHCHECK asks for: its command run for real against a server that records it. */
async function healthcheckPath(command: string[]): Promise<string> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const [program, script, ...args] = command;
    expect({ program, script }).toEqual({ program: 'node', script: 'deploy/healthcheck.mjs' });
    const env = { ...process.env, PORT: String((server.address() as AddressInfo).port) };
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [path.join(root, script), ...args], { env }, (error) => (error ? reject(error) : resolve())),
    );
    return paths[0];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Stand-ins for the values a Secret holds, valid for the configuration schema. */
const SECRET_VALUES: Record<string, string> = {
  JWT_SECRET: 'j'.repeat(48),
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  DATABASE_URL: 'postgres://service:password@db.example.com:5432/datacatalogue',
  SMTP_URL: 'smtp://user:password@smtp.example.com:587',
  S3_ACCESS_KEY_ID: 'access-key',
  S3_SECRET_ACCESS_KEY: 'secret-key',
};

/** The environment a container starts with: its ConfigMaps, then its own env (which wins, as in Kubernetes). */
function environment(objects: KubeObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const configMap = named(objects, 'ConfigMap', source.configMapRef?.name ?? '');
    if (!configMap) throw new Error(`${container.name}: envFrom names no ConfigMap of the rendered objects`);
    Object.assign(env, configMap.data);
  }
  for (const item of container.env ?? []) {
    if (item.valueFrom?.secretKeyRef && !(item.name in SECRET_VALUES)) throw new Error(`${item.name}: add a stand-in value to SECRET_VALUES`);
    env[item.name] = item.value ?? SECRET_VALUES[item.name];
  }
  return env;
}

/** DuckDB's size syntax (`512MB`): KB, MB, GB count in 1000s, KiB, MiB, GiB in 1024s. */
function duckdbBytes(size: string): number {
  const match = /^(\d+)\s*([KMG])(i?)B$/.exec(size);
  if (!match) throw new Error(`Not a DuckDB size: ${size}`);
  return Number(match[1]) * (match[3] ? 1024 : 1000) ** ('KMG'.indexOf(match[2]) + 1);
}

/** nginx's size syntax (`2304m`): k, m and g count in 1024s. */
function nginxBytes(size: string): number {
  const match = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!match) throw new Error(`Not an nginx size: ${size}`);
  return Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase());
}

describeInfra('k8s/ and the image and configuration it runs', kubectlAvailable(), () => {
  const rendered: Record<string, KubeObject[]> = {};
  beforeAll(() => {
    for (const dir of KUSTOMIZATIONS) rendered[dir] = kustomize(dir);
  });
  const deployments = () => KUSTOMIZATIONS.flatMap((dir) => byKind(rendered[dir], 'Deployment').map((deployment) => ({ dir, deployment })));

  it("runs every service as the image's own non-root user", () => {
    const { uid } = image();
    expect(uid).toEqual(expect.any(Number));
    expect(uid).not.toBe(0);
    for (const { dir, deployment } of deployments()) {
      const id = `${dir}: ${deployment.metadata.name}`;
      expect({ id, runAsUser: podSpec(deployment).securityContext?.runAsUser }).toEqual({ id, runAsUser: uid });
    }
  });

  it('listens on a port the image exposes, and tells the service so in PORT', () => {
    const { ports } = image();
    for (const { dir, deployment } of deployments()) {
      const [container] = podSpec(deployment).containers;
      const port = container.ports?.[0].containerPort;
      const id = `${dir}: ${deployment.metadata.name}`;
      expect({ id, exposed: ports.includes(port ?? -1), PORT: container.env?.find((item) => item.name === 'PORT')?.value }).toEqual({
        id,
        exposed: true,
        PORT: String(port),
      });
    }
  });

  it("asks in its readiness probe what the image's HEALTHCHECK asks", async () => {
    const asked = await healthcheckPath(image().healthcheck);
    expect(asked).toMatch(/^\/health\//);
    for (const { dir, deployment } of deployments()) {
      const id = `${dir}: ${deployment.metadata.name}`;
      expect({ id, ready: podSpec(deployment).containers[0].readinessProbe?.httpGet?.path }).toEqual({ id, ready: asked });
    }
  });

  it('picks the service through SERVICE, which the image reads', () => {
    const { cmd, env } = image();
    expect(cmd).toContain('${SERVICE}');
    expect(env).toContain('SERVICE');
    for (const { dir, deployment } of deployments()) {
      const id = `${dir}: ${deployment.metadata.name}`;
      expect({ id, SERVICE: podSpec(deployment).containers[0].env?.find((item) => item.name === 'SERVICE')?.value }).toEqual({
        id,
        SERVICE: deployment.metadata.name,
      });
    }
  });

  it('sets only variables the configuration schema or the image reads', () => {
    const known = new Set([...CONFIG_VARIABLES, ...image().env]);
    expect(known.has('KAFKA_BROKERS')).toBe(true);
    for (const { dir, deployment } of deployments()) {
      const id = `${dir}: ${deployment.metadata.name}`;
      const names = Object.keys(environment(rendered[dir], podSpec(deployment).containers[0]));
      expect({ id, unknown: names.filter((name) => !known.has(name)) }).toEqual({ id, unknown: [] });
    }
  });

  it('gives every service an environment its start-up check accepts, on the distributed drivers', () => {
    for (const { dir, deployment } of deployments()) {
      const name = deployment.metadata.name;
      const env = environment(rendered[dir], podSpec(deployment).containers[0]);
      // A service process is always one of the distributed mode (runService), whatever RUN_MODE says,
      // so it is held to that mode's requirements: without JWT_SECRET it would make up its own.
      const config = loadConfig({ ...env, RUN_MODE: 'distributed' });
      const id = `${dir}: ${name}`;
      expect({
        id,
        drivers: { BUS_DRIVER: config.BUS_DRIVER, STORAGE_DRIVER: config.STORAGE_DRIVER, SEARCH_DRIVER: config.SEARCH_DRIVER, MAIL_DRIVER: config.MAIL_DRIVER },
      }).toEqual({
        id,
        drivers: DRIVERS,
      });
      // The gateway needs no database; every other service does (runService refuses to start without).
      expect({ id, database: Boolean(config.DATABASE_URL) }).toEqual({ id, database: name !== 'gateway' });
    }
    // The check can fail: without a Kafka address the configuration is refused.
    const [{ dir, deployment }] = deployments();
    const { KAFKA_BROKERS: _brokers, ...withoutKafka } = environment(rendered[dir], podSpec(deployment).containers[0]);
    expect(() => loadConfig({ ...withoutKafka, RUN_MODE: 'distributed' })).toThrow(/KAFKA_BROKERS/);
  });

  it('lets through the Ingress every upload the catalogue accepts, and not much more', () => {
    // Files may total MAX_UPLOAD_BYTES; beside them a form holds text fields, and each part has a
    // boundary and headers (1 KiB is ample).
    const formBytes = FORM_LIMITS.fields * (FORM_LIMITS.fieldSize + FORM_LIMITS.fieldNameSize) + FORM_LIMITS.parts * 1024;
    for (const dir of KUSTOMIZATIONS) {
      const catalogue = named(rendered[dir], 'Deployment', 'catalogue') as KubeObject;
      const maxUpload = loadConfig(environment(rendered[dir], podSpec(catalogue).containers[0])).MAX_UPLOAD_BYTES;
      const annotations = named(rendered[dir], 'Ingress', 'gateway')?.metadata.annotations ?? {};
      const allowed = nginxBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '');
      const slack = allowed - maxUpload - formBytes;
      expect({ dir, allowsEveryUpload: slack >= 0, notMuchMore: slack < 64 * 1024 ** 2 }).toEqual({ dir, allowsEveryUpload: true, notMuchMore: true });
    }
    expect(nginxBytes('1g')).toBe(1024 ** 3);
  });

  it("gives the jobs container room for a merge's DuckDB beside Node, and a CPU for each of its threads", () => {
    // An allowance for Node's heap and buffers beside DuckDB (not measured here: a floor, not a fit).
    const nodeBytes = 256 * 1024 ** 2;
    for (const dir of KUSTOMIZATIONS) {
      const { limits = {} } = podSpec(named(rendered[dir], 'Deployment', 'jobs') as KubeObject).containers[0].resources ?? {};
      expect({ dir, memory: quantity(limits.memory) >= duckdbBytes(MERGE_ENGINE_SETTINGS.memoryLimit) + nodeBytes }).toEqual({ dir, memory: true });
      expect({ dir, cpu: quantity(limits.cpu) >= MERGE_ENGINE_SETTINGS.threads }).toEqual({ dir, cpu: true });
    }
    expect(duckdbBytes('512MB')).toBe(512e6);
  });
});
