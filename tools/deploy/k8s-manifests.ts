// The k8s/ manifests as the deployment specs read them: rendered by the real `kubectl kustomize`,
// each object validated against its Kubernetes schema, and the shapes of a pod spec they look into.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { root } from './deploy-contract';

export const k8sRoot = path.join(root, 'k8s');
export const KUSTOMIZATIONS = ['base', 'overlays/dev', 'overlays/production'];

/**
 * Where the schemas come from. kubernetes-models 4.5.0 moved to the OpenAPI schemas of Kubernetes
 * v1.33.0 (its CHANGELOG; the README badge still says 1.27.1). A test pins the installed version,
 * so an upgrade makes someone restate the Kubernetes version here and in k8s/README.md.
 */
export const SCHEMAS = { package: 'kubernetes-models', version: '4.5.1', kubernetes: '1.33.0' };

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

type Validating = new (data?: never) => { validate(): void };
const MODELS: Record<string, Validating> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'networking.k8s.io/v1/Ingress': Ingress,
};

export function validateObject(object: KubeObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`No validation model for ${object.apiVersion} ${object.kind}: add it to MODELS in tools/deploy/k8s-manifests.ts`);
  new Model(object as never).validate();
}

/** Parses every document of a YAML text, failing on any YAML error; empty documents are dropped. */
export function parseYamlDocuments(text: string, source: string): unknown[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((error) => error.message).join('; ')}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

export const readYamlDocuments = (file: string) => parseYamlDocuments(readFileSync(file, 'utf8'), file);

/** True when kubectl runs here, else why not (the reason a skipped suite prints). */
export function kubectlAvailable(): true | string {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'pipe', timeout: 20_000 });
    return true;
  } catch (error) {
    return `kubectl is not usable here (${(error as Error).message.split('\n')[0]}); install kubectl to render k8s/`;
  }
}

/** `kubectl kustomize k8s/<dir>`: the objects `kubectl apply -k` would send. */
export function kustomize(dir: string): KubeObject[] {
  const output = execFileSync('kubectl', ['kustomize', path.join(k8sRoot, dir)], { encoding: 'utf8', timeout: 60_000 });
  return parseYamlDocuments(output, `kubectl kustomize k8s/${dir}`) as KubeObject[];
}

export function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
export interface Probe {
  httpGet?: { path: string; port: string | number };
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  volumes?: { name: string; emptyDir?: { sizeLimit?: string } }[];
}
/** The pod template of a Deployment or a Job. */
export const podSpec = (object: KubeObject) => (object.spec as { template: { spec: PodSpec } }).template.spec;
export const byKind = (objects: KubeObject[], kind: string) => objects.filter((object) => object.kind === kind);
export const named = (objects: KubeObject[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);

/** A Kubernetes quantity (`250m`, `2`, `512Mi`, `1Gi`) as a number, to compare requests with limits. */
export function quantity(text: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(text ?? '');
  if (!match) throw new Error(`Not a quantity: ${text}`);
  const unit = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}
