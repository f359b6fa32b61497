import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, RunningProcess, watchOutput } from './process';

/**
 * Podman as it runs on these machines (no Docker engine): as root, with runc and cgroupfs (crun fails
 * on rlimits and hybrid cgroups here), on the kernel's overlay file system where it has one (a
 * container starts in a second; vfs, the fallback, copies the whole image for every container).
 * The tests keep their own store, so they never mix with images made with other settings.
 */
const STORAGE_DRIVER = readFileSync('/proc/filesystems', 'utf8').includes('\toverlay\n') ? 'overlay' : 'vfs';
export const PODMAN = [
  '--runtime=runc',
  '--cgroup-manager=cgroupfs',
  `--storage-driver=${STORAGE_DRIVER}`,
  `--root=/var/lib/containers/data-catalogue-${STORAGE_DRIVER}`,
  `--runroot=/run/containers/data-catalogue-${STORAGE_DRIVER}`,
];
/**
 * `podman run`'s flags here: no systemd runs to schedule the image's HEALTHCHECK on a timer (podman
 * logs errors for it), so the tests run the check themselves with `podman healthcheck run`.
 */
export const PODMAN_RUN = ['run', '--health-interval=disable'];
/** Podman's default ulimits fail here; containers.conf must turn them off (written when missing). */
const CONTAINERS_CONF = '/etc/containers/containers.conf';
/** The product's image, as the container tests build it from deploy/Dockerfile. */
export const PRODUCT_IMAGE = 'localhost/data-catalogue:test';

export function podman(args: string[], options: { input?: string; timeoutMs?: number } = {}): string {
  return execFileSync('podman', [...PODMAN, ...args], {
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * podman without blocking this process: s3rver runs in the test's own process, and a service asked
 * for its health, or told to shut down, talks to it meanwhile. Resolves with the exit code.
 */
export function podmanAsync(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('podman', [...PODMAN, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * The container's health check as its engine judges it: unhealthy only after `retries` failures in a
 * row, so one probe that outran its timeout while the machine was busy (seven Node processes starting
 * on two cores) is not a verdict. Probes run one after another, as the engine spaces them out.
 * Resolves 'healthy', or 'failed: ' and what the last probe printed.
 */
export async function healthCheck(container: string, retries: number): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < retries; attempt++) {
    const { code, output } = await podmanAsync(['healthcheck', 'run', container]);
    if (code === 0) return 'healthy';
    last = output;
  }
  return `failed: ${last}`;
}

/** True when podman, runc and debootstrap are installed (apt-get install podman runc debootstrap); otherwise why not. */
export function containerToolsReady(): true | string {
  const missing = ['podman', 'runc', 'debootstrap'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) return `${missing.join(', ')} not installed (apt-get install podman runc debootstrap)`;
  if (process.getuid?.() !== 0) return 'podman runs containers here only as root';
  return true;
}

/** Writes podman's containers.conf without default ulimits when it has none (what CI needs, the test sets up). */
export function configurePodman(): void {
  const text = existsSync(CONTAINERS_CONF) ? readFileSync(CONTAINERS_CONF, 'utf8') : '';
  if (/default_ulimits\s*=\s*\[\s*\]/.test(text)) return;
  if (text.trim()) throw new Error(`${CONTAINERS_CONF} exists without "default_ulimits = []" under [containers]: add it (podman's default ulimits fail here)`);
  mkdirSync(path.dirname(CONTAINERS_CONF), { recursive: true });
  writeFileSync(CONTAINERS_CONF, '[containers]\ndefault_ulimits = []\n');
}

const imageExists = (image: string) => spawnSync('podman', [...PODMAN, 'image', 'exists', image]).status === 0;

/** The Node binary the project pins (the node package in devDependencies) and its version. */
function pinnedNode(): { binary: string; version: string } {
  const binary = path.join(REPO_ROOT, 'node_modules/node/bin/node');
  return { binary, version: execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '') };
}

/** npm's own folder, from the npm that runs on this machine (the image's build stages run npm ci). */
function npmFolder(): string {
  const cli = execFileSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' }).trim();
  return path.resolve(path.dirname(cli), '..');
}

/**
 * A local stand-in for node:24-slim, which no registry here serves: Debian bookworm (debootstrap
 * minbase) with the project's pinned Node, this machine's npm, a `node` user (uid 1000, as in the
 * official image) and this machine's CA bundle (the npm registry is reached through a TLS proxy).
 * Cached under a tag named after what went in, so it is made once per machine (about 50 s).
 */
export function ensureBaseImage(): string {
  const node = pinnedNode();
  const npm = npmFolder();
  const npmVersion = JSON.parse(readFileSync(path.join(npm, 'package.json'), 'utf8')).version as string;
  // The recipe is this function: a change to it makes a new image, a change elsewhere does not.
  const recipe = createHash('sha256').update(ensureBaseImage.toString()).digest('hex').slice(0, 8);
  const image = `localhost/dc-node-base:${node.version}-npm${npmVersion}-${recipe}`;
  if (imageExists(image)) return image;
  const rootfs = mkdtempSync(path.join(tmpdir(), 'dc-base-'));
  try {
    execFileSync('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'], { stdio: 'ignore', timeout: 15 * 60_000 });
    const local = path.join(rootfs, 'usr/local');
    copyFileSync(node.binary, path.join(local, 'bin/node'));
    chmodSync(path.join(local, 'bin/node'), 0o755);
    mkdirSync(path.join(local, 'lib/node_modules'), { recursive: true });
    execFileSync('cp', ['-a', npm, path.join(local, 'lib/node_modules/npm')]);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin/npx'));
    mkdirSync(path.join(rootfs, 'etc/ssl/certs'), { recursive: true });
    copyFileSync('/etc/ssl/certs/ca-certificates.crt', path.join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
    execFileSync('chroot', [rootfs, 'sh', '-c', 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/sh --create-home node']);
    // What an image needs no more: package caches, documentation, translations.
    for (const folder of ['var/cache/apt', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/locale', 'usr/share/info'])
      rmSync(path.join(rootfs, folder), { recursive: true, force: true });
    // mkdtemp made the folder 0700, and it becomes the image's /: the node user must traverse it.
    chmodSync(rootfs, 0o755);
    const changes = [
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
      'CMD ["node"]',
    ];
    const importArgs = [...PODMAN, 'import', ...changes.flatMap((change) => ['--change', change]), '-', image];
    execFileSync('sh', ['-c', 'tar -C "$0" -c . | podman "$@"', rootfs, ...importArgs], { stdio: ['ignore', 'ignore', 'inherit'] });
    return image;
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

/**
 * Builds deploy/Dockerfile from the repository (its .dockerignore keeps node_modules and dist out)
 * on the local base image; podman reuses cached layers of unchanged steps. Output goes to `logFile`.
 */
export function buildProductImage(logFile: string, image = PRODUCT_IMAGE): Promise<void> {
  const base = ensureBaseImage();
  // Docker's image format: the OCI format has no HEALTHCHECK and podman would drop it.
  const args = [...PODMAN, 'build', '--format=docker', '--network=host', '--build-arg', `NODE_IMAGE=${base}`, '-f', 'deploy/Dockerfile', '-t', image, '.'];
  return new Promise((resolve, reject) => {
    execFile('podman', args, { cwd: REPO_ROOT, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      writeFileSync(logFile, `${stdout}\n${stderr}`);
      if (error) reject(new Error(`podman build failed (log: ${logFile}):\n${`${stdout}\n${stderr}`.slice(-4000)}`));
      else resolve();
    });
  });
}

export interface ContainerOptions {
  /** host path -> container path */
  volumes?: Record<string, string>;
  /** A read-only root file system, as compose and k8s run it (podman adds tmpfs on /tmp and /run). */
  readOnly?: boolean;
  /** Extra `podman run` flags. */
  flags?: string[];
}

/**
 * Runs the image in the foreground on the host network, like startNode runs a process: its output
 * line by line, kill (a crash: `podman kill`) and stop (SIGTERM, then SIGKILL after 15 s).
 */
export function startContainer(name: string, image: string, env: Record<string, string>, options: ContainerOptions = {}): RunningProcess {
  const container = `dc-test-${name}-${process.pid}-${Date.now().toString(36)}`;
  const args = [
    ...PODMAN,
    ...PODMAN_RUN,
    '--rm',
    '--name',
    container,
    '--network=host',
    ...(options.readOnly === false ? [] : ['--read-only']),
    ...Object.entries(options.volumes ?? {}).flatMap(([host, inside]) => ['-v', `${host}:${inside}`]),
    ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
    ...(options.flags ?? []),
    image,
  ];
  const child = spawn('podman', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const { lines, exited } = watchOutput(child);
  const signal = (signalName: NodeJS.Signals) =>
    new Promise<void>((resolve) => execFile('podman', [...PODMAN, 'kill', '--signal', signalName, container], () => resolve()));
  return {
    name,
    container,
    process: child,
    lines,
    exited,
    kill: (signalName) => void signal(signalName),
    async stop(signalName: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      await signal(signalName);
      const timer = setTimeout(() => void signal('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A host folder the image's user (uid 1000) may write, mounted at the same path inside. */
export function writableFolder(folder: string): string {
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  return folder;
}
