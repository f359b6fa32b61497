import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * Ports freePort hands out in a jest worker: a block of its own per worker, below the kernel's
 * ephemeral range (32768 and up). A port the OS picked with listen(0) and released at once could be
 * handed by the kernel to the next listen(0) of another suite's server before the test's process
 * bound it (seen in CI: a product's readiness answered by another suite's service, which then
 * answered its calls with 404).
 */
const WORKER_PORTS = { first: 20_000, perWorker: 600, workers: 20 };
let nextWorkerPort = Math.floor(Math.random() * WORKER_PORTS.perWorker);

/** A free loopback port, for a server a test or benchmark is about to start. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID);
  if (!Number.isInteger(worker) || worker < 1 || worker > WORKER_PORTS.workers) return osPickedPort();
  const blockStart = WORKER_PORTS.first + (worker - 1) * WORKER_PORTS.perWorker;
  for (let tries = 0; tries < WORKER_PORTS.perWorker; tries++) {
    const port = await listenOnce(blockStart + (nextWorkerPort++ % WORKER_PORTS.perWorker));
    if (port !== null) return port;
  }
  return osPickedPort();
}

/**
 * Binds a loopback listener on this port (0: one the OS picks) and closes it again: the port it had,
 * or null if the port was taken.
 */
function listenOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : null));
    });
  });
}

/** A port the OS picks: outside jest, one process at a time. */
async function osPickedPort(): Promise<number> {
  const port = await listenOnce(0);
  if (port === null) throw new Error('no loopback port to listen on');
  return port;
}

/** Builds the server code once (dist/) if a test needs the real entry points and it is missing. */
export function ensureServerBuild(): void {
  if (existsSync(path.join(REPO_ROOT, 'dist/apps/gateway/src/main.js'))) return;
  buildServer();
}

/** Builds the server into dist/ (about a second): a benchmark measures the code as it is, not a build left from before. */
export function buildServer(): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'tools/scripts/build.mjs'), '--server-only'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

export interface RunningProcess {
  name: string;
  /** The container's name when it runs in one (startContainer). */
  container?: string;
  process: ChildProcess;
  /** Everything it printed, line by line (stdout and stderr). */
  lines: string[];
  exited: Promise<number | null>;
  /** Sends a signal and returns at once (SIGKILL: a crash). */
  kill(signal: NodeJS.Signals): void;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** productNodeFlags, read once per process. */
let startFlags: string[] | undefined;

/**
 * The Node flags `npm start` gives the product (package.json's start script, for example the young
 * generation's size), so tests and benchmarks run its entry points as users do.
 */
export function productNodeFlags(): string[] {
  if (startFlags) return startFlags;
  const start: string = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node((?:\s+--\S+)*)\s+dist\//.exec(start);
  if (!flags) throw new Error(`package.json: the start script is not "node [--flags] dist/...": ${start}`);
  return (startFlags = flags[1].trim().split(/\s+/).filter(Boolean));
}

/** A service's entry point (dist/apps/<service>/src/main.js), which production starts with npm start's flags. */
const PRODUCT_ENTRY_POINT = /^dist\/apps\/[^/]+\/src\/main\.js$/;

/** Starts a Node entry point of the repo with the project's Node and a controlled environment. */
export function startNode(name: string, script: string, env: Record<string, string>, args: string[] = []): RunningProcess {
  const flags = PRODUCT_ENTRY_POINT.test(script) ? productNodeFlags() : [];
  const child = spawn(process.execPath, [...flags, path.join(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { lines, exited } = watchOutput(child);
  return {
    name,
    process: child,
    lines,
    exited,
    kill: (signal) => child.kill(signal),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A child's output, line by line (stdout and stderr), and its exit code once it exits. */
export function watchOutput(child: ChildProcess): { lines: string[]; exited: Promise<number | null> } {
  const lines: string[] = [];
  // A chunk may end mid-line: each stream keeps its unfinished line until the rest arrives.
  const collect = (stream: NodeJS.ReadableStream) => {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
    stream.on('end', () => partial && lines.push(partial));
  };
  collect(child.stdout!);
  collect(child.stderr!);
  return { lines, exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** Runs a TypeScript file of the repo in its own process (compiled on load, as tools/scripts/run-ts.cjs does). */
export function startTypeScript(name: string, script: string, env: Record<string, string>): RunningProcess {
  return startNode(name, 'tools/scripts/run-ts.cjs', env, [script]);
}

/** Waits until the process prints a line that passes `test`; fails when it exits or time runs out. */
export async function waitForLine(running: RunningProcess, test: (line: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = running.lines.find(test);
    if (line !== undefined) return line;
    const exited = running.process.exitCode !== null || running.process.signalCode !== null;
    if (exited || Date.now() > deadline) {
      throw new Error(`${running.name} ${exited ? 'exited' : 'went on'} without printing the line awaited:\n${running.lines.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls a URL until it answers 2xx (or the process dies, or time runs out). */
export async function waitForHttp(url: string, options: { timeoutMs?: number; process?: RunningProcess } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError = '';
  while (Date.now() < deadline) {
    if (options.process && options.process.process.exitCode !== null) {
      throw new Error(`${options.process.name} exited with ${options.process.process.exitCode}:\n${options.process.lines.slice(-30).join('\n')}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = `HTTP ${response.status}: ${await response.text()}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready: ${lastError}${options.process ? `\n${options.process.lines.slice(-30).join('\n')}` : ''}`);
}

/** Retries an assertion until it passes or time runs out (for eventually-consistent projections). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
