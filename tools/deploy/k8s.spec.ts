// The k8s/ manifests, rendered by the real `kubectl kustomize` (base and each overlay), against the
// Kubernetes API schemas and the deployment contract (deploy-contract.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeInfra } from '@dc/testing';
import { BACKENDS, DRIVERS, HEALTH, K8S_SECRET_ENV, looksSecret, REQUIRED_ENV, root, SERVICES } from './deploy-contract';
import {
  byKind,
  type KubeObject,
  k8sRoot,
  KUSTOMIZATIONS,
  kubectlAvailable,
  kustomize,
  named,
  podSpec,
  quantity,
  readYamlDocuments,
  SCHEMAS,
  validateObject,
  yamlFiles,
} from './k8s-manifests';

const workloads = (objects: KubeObject[]) => objects.filter((object) => object.kind === 'Deployment' || object.kind === 'Job');

describe('k8s/ files', () => {
  it('parses every YAML file', () => {
    const files = yamlFiles(k8sRoot);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect({ file, documents: readYamlDocuments(file).length > 0 }).toEqual({ file, documents: true });
  });

  it('lists in each kustomization.yaml every YAML file beside it (kustomize would silently leave one out)', () => {
    for (const dir of KUSTOMIZATIONS) {
      const [kustomization] = readYamlDocuments(path.join(k8sRoot, dir, 'kustomization.yaml')) as { resources?: string[]; patches?: { path: string }[] }[];
      const listed = [...(kustomization.resources ?? []), ...(kustomization.patches ?? []).map((patch) => patch.path)];
      const unlisted = readdirSync(path.join(k8sRoot, dir)).filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml' && !listed.includes(file));
      expect({ dir, unlisted }).toEqual({ dir, unlisted: [] });
    }
  });

  it(`validates against the Kubernetes ${SCHEMAS.kubernetes} schemas of the installed ${SCHEMAS.package} ${SCHEMAS.version}, which reject a broken object`, () => {
    const installed = JSON.parse(readFileSync(path.join(root, 'node_modules', SCHEMAS.package, 'package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(SCHEMAS.version);
    const broken = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' }, spec: { ports: [{ port: 'eighty' }] } };
    expect(() => validateObject(broken)).toThrow(/port/);
    expect(() => validateObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toThrow(/No validation model/);
  });
});

describeInfra('k8s/ rendered by kubectl kustomize', kubectlAvailable(), () => {
  const rendered: Record<string, KubeObject[]> = {};
  let base: KubeObject[];
  beforeAll(() => {
    for (const dir of KUSTOMIZATIONS) rendered[dir] = kustomize(dir);
    base = rendered.base;
  });
  const overlays = () => KUSTOMIZATIONS.filter((dir) => dir.startsWith('overlays/')).map((dir) => ({ name: dir, objects: rendered[dir] }));

  it(`renders base, dev and production into objects valid against the Kubernetes ${SCHEMAS.kubernetes} API schemas`, () => {
    for (const dir of KUSTOMIZATIONS) {
      expect({ dir, objects: rendered[dir].length }).toEqual({ dir, objects: expect.any(Number) });
      expect(rendered[dir].length).toBeGreaterThan(0);
      for (const object of rendered[dir]) {
        const id = `${dir}: ${object.kind}/${object.metadata?.name}`;
        expect({ id, error: errorOf(() => validateObject(object)) }).toEqual({ id, error: undefined });
      }
    }
  });

  it('has a Deployment and a Service per service, with health probes on the service port', () => {
    expect(
      byKind(base, 'Deployment')
        .map((object) => object.metadata.name)
        .sort(),
    ).toEqual(Object.keys(SERVICES).sort());
    for (const [name, port] of Object.entries(SERVICES)) {
      const deployment = named(base, 'Deployment', name) as KubeObject;
      const [container] = podSpec(deployment).containers;
      expect({ name, ports: container.ports }).toEqual({ name, ports: [{ name: 'http', containerPort: port }] });
      expect({ name, ready: container.readinessProbe?.httpGet, live: container.livenessProbe?.httpGet }).toEqual({
        name,
        ready: { path: HEALTH.ready, port: 'http' },
        live: { path: HEALTH.live, port: 'http' },
      });
      const env = Object.fromEntries((container.env ?? []).map((item) => [item.name, item.value]));
      expect({ name, PORT: env.PORT, SERVICE: env.SERVICE }).toEqual({ name, PORT: String(port), SERVICE: name });
      const spec = named(base, 'Service', name)?.spec as { selector: Record<string, string>; ports: { port: number; targetPort: string }[] };
      const labels = (deployment.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
      expect({ name, selects: Object.entries(spec.selector).every(([key, value]) => labels[key] === value) }).toEqual({ name, selects: true });
      expect({ name, ports: spec.ports.map(({ port: servicePort, targetPort }) => ({ port: servicePort, targetPort })) }).toEqual({
        name,
        ports: [{ port, targetPort: 'http' }],
      });
    }
  });

  it('gives every pod resource requests within limits and a non-root, read-only security context with every capability dropped', () => {
    for (const workload of workloads(base)) {
      const name = `${workload.kind}/${workload.metadata.name}`;
      const pod = podSpec(workload);
      expect({ name, pod: pod.securityContext }).toEqual({ name, pod: expect.objectContaining({ runAsNonRoot: true, runAsUser: expect.any(Number) }) });
      expect({ name, root: pod.securityContext?.runAsUser === 0 }).toEqual({ name, root: false });
      for (const container of pod.containers) {
        const { requests = {}, limits = {} } = container.resources ?? {};
        expect({ name, requests: Object.keys(requests).sort(), limits: Object.keys(limits).sort() }).toEqual({
          name,
          requests: ['cpu', 'memory'],
          limits: ['cpu', 'memory'],
        });
        for (const resource of ['cpu', 'memory'])
          expect({ name, resource, withinLimit: quantity(requests[resource]) <= quantity(limits[resource]) }).toEqual({ name, resource, withinLimit: true });
        expect({ name, security: container.securityContext }).toEqual({
          name,
          security: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        });
      }
    }
    for (const deployment of byKind(base, 'Deployment'))
      for (const container of podSpec(deployment).containers)
        expect({ name: deployment.metadata.name, image: container.image }).toEqual({ name: deployment.metadata.name, image: 'data-catalogue' });
  });

  it('configures every service for the distributed drivers from the ConfigMap and Secret references', () => {
    const config = named(base, 'ConfigMap', 'data-catalogue-config')?.data as Record<string, string>;
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
    for (const dir of KUSTOMIZATIONS) {
      expect({ dir, secrets: byKind(rendered[dir], 'Secret').map((object) => object.metadata.name) }).toEqual({ dir, secrets: [] });
      for (const configMap of byKind(rendered[dir], 'ConfigMap')) {
        const data = (configMap.data as Record<string, string>) ?? {};
        expect({ dir, secretLooking: Object.keys(data).filter((key) => looksSecret(key) || K8S_SECRET_ENV.includes(key)) }).toEqual({ dir, secretLooking: [] });
        for (const [key, value] of Object.entries(data)) expect({ key, credentialsInUrl: /:\/\/[^/]*@/.test(value) }).toEqual({ key, credentialsInUrl: false });
      }
      for (const workload of workloads(rendered[dir])) {
        for (const item of podSpec(workload).containers.flatMap((container) => container.env ?? [])) {
          if (!looksSecret(item.name) && !K8S_SECRET_ENV.includes(item.name)) continue;
          const ref = item.valueFrom?.secretKeyRef;
          const id = `${dir}: ${workload.metadata.name} ${item.name}`;
          expect({ id, inline: item.value, secretKeyRef: Boolean(ref?.name && ref?.key) }).toEqual({ id, inline: undefined, secretKeyRef: true });
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
    const rules = (ingresses[0].spec as { rules: { http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[] }).rules;
    expect(rules.flatMap((rule) => rule.http.paths.map((item) => item.backend.service))).toEqual([{ name: 'gateway', port: { name: 'http' } }]);
  });

  it('renders every overlay with pinned images, one namespace and its own host', () => {
    for (const { name, objects } of overlays()) {
      const ids = objects.map((object) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`);
      expect({ name, duplicates: ids.filter((id, index) => ids.indexOf(id) !== index) }).toEqual({ name, duplicates: [] });
      const [namespace] = byKind(objects, 'Namespace');
      const outside = objects.filter((object) => object.kind !== 'Namespace' && object.metadata.namespace !== namespace?.metadata.name);
      expect({ name, outside: outside.map((object) => `${object.kind}/${object.metadata.name}`) }).toEqual({ name, outside: [] });
      for (const workload of workloads(objects)) {
        for (const container of podSpec(workload).containers)
          expect({ name, image: container.image }).toEqual({ name, image: expect.stringMatching(/^[\w.-]+(:\d+)?\/[\w./-]+:(?!latest$)[\w.-]+$/) });
      }
      const host = (named(objects, 'Ingress', 'gateway')?.spec as { rules: { host: string }[] }).rules[0].host;
      expect((named(objects, 'ConfigMap', 'data-catalogue-config')?.data as Record<string, string>).PUBLIC_URL).toBe(`https://${host}`);
    }
  });

  it('runs more than one replica of the HTTP-facing services in production', () => {
    for (const name of ['gateway', 'identity', 'catalogue', 'search', 'requests']) {
      const replicas = (named(rendered['overlays/production'], 'Deployment', name)?.spec as { replicas?: number } | undefined)?.replicas;
      expect({ name, replicas: (replicas ?? 0) > 1 }).toEqual({ name, replicas: true });
    }
  });
});

function errorOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
