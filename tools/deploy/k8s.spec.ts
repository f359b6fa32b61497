// The k8s/ manifests (kustomize base and overlays) against the Kubernetes schemas and the deployment
// contract (deploy-contract.ts), without kustomize.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { BACKENDS, DRIVERS, HEALTH, K8S_SECRET_ENV, looksSecret, REQUIRED_ENV, root, SERVICES } from './deploy-contract';
import { byKind, k8sRoot, named, podSpec, validateObject, yamlFiles } from './k8s-manifests';
import { type KubeObject, kustomizationDirs, kustomizeBuild, readYamlDocuments, referencedPaths } from './kustomize';

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
