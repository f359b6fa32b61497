import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PODMAN, SERVICES } from '@dc/testing';

/** The product's own services in docker-compose.yml; the rest is infrastructure (Kafka, PostgreSQL, ...). */
export const PRODUCT_SERVICES = ['gateway', ...SERVICES] as const;
export type ProductService = (typeof PRODUCT_SERVICES)[number];

/** A service as podman-compose holds it after parsing: anchors merged, ${...} substituted, environment as a map. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  read_only?: boolean;
  tmpfs?: string[];
  restart?: string;
  command?: unknown;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
  environment?: Record<string, string | number | null>;
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: unknown;
  volumes?: string[];
  network_mode?: string;
  [key: string]: unknown;
}

const podmanCompose = () => execFileSync('sh', ['-c', 'command -v podman-compose'], { encoding: 'utf8' }).trim();

/** True when podman-compose is installed; otherwise how to install it. */
export const podmanComposeReady = (): true | string =>
  spawnSync('sh', ['-c', 'command -v podman-compose']).status === 0 || 'podman-compose is not installed (apt-get install podman-compose)';

/**
 * podman-compose 1.0.3 (Debian bookworm) has no `config` command, so its own parser (the one `up`
 * runs) is called on the file and its result printed as JSON, with the interpreter podman-compose runs on.
 */
const PARSE = `
import json, sys, podman_compose
compose = podman_compose.podman_compose
sys.argv = ['podman-compose', '-f', sys.argv[1], 'ps']
compose._parse_args()
compose._parse_compose_file()
services = {name: {k: v for k, v in s.items() if not k.startswith('_')} for name, s in compose.services.items()}
json.dump({'version': podman_compose.__version__, 'services': services}, sys.stdout)
`;

/** docker-compose.yml as podman-compose understands it, with ${...} defaults only (no variable of ours leaks in). */
export function parseComposeFile(file: string): { version: string; services: Record<string, ComposeService> } {
  const python = readFileSync(podmanCompose(), 'utf8')
    .split('\n')[0]
    .replace(/^#!\s*/, '');
  return JSON.parse(execFileSync(python, ['-c', PARSE, file], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }));
}

/**
 * podman-compose 1.0.3 puts its project network beside `network_mode: host`, which podman refuses
 * ("cannot set multiple networks without bridge network mode", containers/podman-compose#397, fixed
 * in 1.0.4). Given as its --podman-path, this drops `--net <network> --network-alias <service>` from
 * a command that asks for the host network and runs podman with the rest.
 */
const HOST_NETWORK_PODMAN = `#!/bin/sh
host=
case " $* " in *" --network host "*) host=1 ;; esac
drop=0
for arg do
  shift
  if [ "$drop" -gt 0 ]; then drop=$((drop - 1)); continue; fi
  if [ -n "$host" ] && { [ "$arg" = --net ] || [ "$arg" = --network-alias ]; }; then drop=1; continue; fi
  set -- "$@" "$arg"
done
exec podman "$@"
`;

export interface ComposeProject {
  name: string;
  file: string;
  /** `podman-compose <args>` for this project; rejects with its output when it fails. */
  run(args: string[]): Promise<string>;
  /** The project's containers (running or not), by podman-compose's label. */
  containers(): string[];
}

/** A compose project in `folder` (the file is written there), run with podman's flags for this machine. */
export function composeProject(name: string, folder: string, services: Record<string, ComposeService>): ComposeProject {
  // JSON is YAML. podman's own default network stands in for the project network: every service
  // uses the host's, and nothing is left to remove afterwards.
  const file = path.join(folder, 'compose.yml');
  writeFileSync(file, JSON.stringify({ services, networks: { default: { external: { name: 'podman' } } } }, null, 2));
  const wrapper = path.join(folder, 'podman-host-network');
  writeFileSync(wrapper, HOST_NETWORK_PODMAN);
  chmodSync(wrapper, 0o755);
  // Asynchronous: s3rver answers from this process, and the services ask it while compose runs.
  const run = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const command = ['--podman-path', wrapper, '--podman-args', PODMAN.join(' '), '-p', name, '-f', file, ...args];
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
      execFile(podmanCompose(), command, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (error) reject(new Error(`podman-compose ${args.join(' ')} failed (${error.message}):\n${output.slice(-4000)}`));
        else resolve(output);
      });
    });
  const containers = () =>
    execFileSync('podman', [...PODMAN, 'ps', '-a', '--filter', `label=io.podman.compose.project=${name}`, '--format', '{{.Names}}'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  return { name, file, run, containers };
}
