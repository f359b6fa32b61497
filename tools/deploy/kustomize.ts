import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * A small stand-in for `kustomize build`, enough for the fields k8s/ uses (no kustomize binary
 * exists on these machines). Unknown kustomization fields throw, so a manifest can never use a
 * transformer that the validation silently ignores.
 */

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  patches?: { path: string; target: { kind: string; name: string } }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  replicas?: { name: string; count: number }[];
}

type JsonPatch = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown }[];

const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'patches', 'images', 'replicas']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'IngressClass', 'StorageClass', 'PersistentVolume']);

/** Parses every document of a YAML file, failing on any YAML error; empty documents are dropped. */
export function readYamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((error) => error.message).join('; ')}`);
    const value: unknown = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

export function readKustomization(dir: string): Kustomization {
  const [kustomization] = readYamlDocuments(path.join(dir, 'kustomization.yaml')) as Kustomization[];
  const unknown = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unknown.length > 0) throw new Error(`${dir}/kustomization.yaml uses fields this emulation does not apply: ${unknown.join(', ')}`);
  return kustomization;
}

/** The files a kustomization refers to: resource files and directories, and patch files. */
export function referencedPaths(dir: string): { resources: string[]; patches: string[] } {
  const kustomization = readKustomization(dir);
  return {
    resources: (kustomization.resources ?? []).map((entry) => path.resolve(dir, entry)),
    patches: (kustomization.patches ?? []).map((patch) => path.resolve(dir, patch.path)),
  };
}

/** Every directory under root that holds a kustomization.yaml. */
export function kustomizationDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (existsSync(path.join(dir, 'kustomization.yaml'))) found.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(path.join(dir, entry.name));
  };
  walk(root);
  return found.sort();
}

function pointer(pathText: string): string[] {
  return pathText
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RFC 6902 add, replace and remove; replace and remove fail on a missing target, like kustomize. */
export function applyJsonPatch(target: unknown, patch: JsonPatch): void {
  for (const operation of patch) {
    const parts = pointer(operation.path);
    const last = parts.pop() as string;
    let parent = target as Record<string, unknown>;
    for (const part of parts) {
      const next = parent?.[part];
      if (next === null || typeof next !== 'object') throw new Error(`patch path ${operation.path} does not exist`);
      parent = next as Record<string, unknown>;
    }
    const exists = Array.isArray(parent) ? Number(last) < parent.length : last in parent;
    if (operation.op !== 'add' && !exists) throw new Error(`patch path ${operation.path} does not exist`);
    if (operation.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (Array.isArray(parent) && operation.op === 'add') {
      parent.splice(last === '-' ? parent.length : Number(last), 0, operation.value);
    } else {
      parent[last] = operation.value;
    }
  }
}

function podContainers(object: KubeObject): { image?: string }[] {
  const spec = (object.spec as { template?: { spec?: { containers?: object[]; initContainers?: object[] } } } | undefined)?.template?.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])] as { image?: string }[];
}

/** `kustomize build dir`, for the fields listed in SUPPORTED. */
export function kustomizeBuild(dir: string): KubeObject[] {
  const kustomization = readKustomization(dir);
  const objects: KubeObject[] = [];
  for (const entry of kustomization.resources ?? []) {
    const resource = path.resolve(dir, entry);
    if (!existsSync(resource)) throw new Error(`${dir}/kustomization.yaml: resource ${entry} does not exist`);
    if (statSync(resource).isDirectory()) objects.push(...kustomizeBuild(resource));
    else objects.push(...(readYamlDocuments(resource) as KubeObject[]));
  }

  for (const patch of kustomization.patches ?? []) {
    const [operations] = readYamlDocuments(path.resolve(dir, patch.path)) as JsonPatch[];
    if (!Array.isArray(operations)) throw new Error(`${patch.path}: only JSON 6902 patches (a list of operations) are emulated`);
    const targets = objects.filter((object) => object.kind === patch.target.kind && object.metadata.name === patch.target.name);
    if (targets.length === 0) throw new Error(`${patch.path}: no ${patch.target.kind}/${patch.target.name} to patch`);
    targets.forEach((object) => applyJsonPatch(object, operations));
  }

  for (const image of kustomization.images ?? []) {
    for (const container of objects.flatMap(podContainers)) {
      const [name, tag] = (container.image ?? '').split(/:(?=[^/]*$)/);
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}${(image.newTag ?? tag) ? `:${image.newTag ?? tag}` : ''}`;
    }
  }

  for (const replicas of kustomization.replicas ?? []) {
    const deployment = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === replicas.name);
    if (!deployment) throw new Error(`${dir}/kustomization.yaml: replicas for unknown Deployment ${replicas.name}`);
    (deployment.spec as { replicas: number }).replicas = replicas.count;
  }

  if (kustomization.namespace) {
    for (const object of objects) if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
  }
  return objects;
}
