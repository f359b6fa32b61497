/**
 * Where a search request's time goes (issue 13): starts the product in embedded mode on the search
 * benchmark's seeded database (run `npm run bench:search` first), and for each query class of that
 * benchmark sends a fixed number of requests, measuring the CPU the product process and the
 * PostgreSQL server spend per request (from /proc, so Linux only; a server process that ends during a
 * class is left out, so its figure can even come out negative). With PROFILE=1 it also writes a
 * CPU profile of each class to $TMPDIR/search-profiles (open them in Chrome's DevTools).
 * Not a benchmark of record: it writes nothing to docs/benchmarks.md.
 *
 * Usage: node tools/scripts/run-ts.cjs tools/bench/search/profile.bench.ts [records=1000000] [requests=1000] [connections=1]
 * Environment: SEARCH_DRIVER (default in-process), ONLY=<class names, comma-separated>, PROFILE=1 (or heap, retained,
 * promoted: a heap profile of every allocation, of what a full collection kept, or of what no scavenge collected), V8_FLAGS (V8 flags for
 * the product, for example --trace-gc, whose collections are then summed up per class), PRODUCT_NODE_OPTIONS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signIn } from '../bench-account';
import { followNext } from './follow-next';
import { snapshotWritten } from './snapshot-wait';
import { buildServer, freePort, startNode, TEST_POSTGRES_URL, waitForHttp } from '@dc/testing';

const PASSWORD = 'bench search password 1';
const records = Number(process.argv[2] ?? 1_000_000);
const requests = Number(process.argv[3] ?? 1000);
const connections = Number(process.argv[4] ?? 1);
const driver = process.env.SEARCH_DRIVER ?? 'in-process';
const profileDir = process.env.PROFILE ? path.join(os.tmpdir(), 'search-profiles') : null;

const CLASSES: Array<{ name: string; path: string; anonymous?: boolean; follow?: number }> = [
  { name: 'housing prices', path: '/api/records/?query=housing%20prices' },
  { name: 'river flow', path: '/api/records/?query=river%20flow' },
  { name: 'data', path: '/api/records/?query=data' },
  { name: 'temperture', path: '/api/records/?query=temperture' },
  { name: 'empty', path: '/api/records/' },
  { name: 'empty p250', path: '/api/records/', follow: 249 },
  { name: 'river flow p25', path: '/api/records/?query=river%20flow', follow: 24 },
  { name: 'own', path: '/api/records/?view=own' },
  { name: 'anonymous river flow', path: '/api/recordsannon/?query=river%20flow', anonymous: true },
];

/** CPU seconds (user + system) of a process. */
function cpuOf(pid: number, part: 'user' | 'system' | 'both' = 'both'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((part === 'system' ? 0 : Number(fields[11])) + (part === 'user' ? 0 : Number(fields[12]))) / 100;
  } catch {
    return 0;
  }
}

function postgresCpu(): number {
  const pids = execFileSync('pgrep', ['-u', 'postgres']).toString().trim().split('\n').map(Number);
  return pids.reduce((sum, pid) => sum + cpuOf(pid), 0);
}

async function run(url: string, token: string | null, amount: number): Promise<number[]> {
  const latencies: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon({ url, connections, amount, headers: token ? { authorization: `JWT ${token}` } : {} }, (error) =>
      error ? reject(error) : resolve(),
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status !== 200) reject(new Error(`${url}: ${status}`));
      latencies.push(time);
    });
  });
  return latencies.sort((a, b) => a - b);
}

async function waitForFile(file: string) {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 100));
}

let lastLines = (): string[] => [];

/** With V8_FLAGS=--trace-gc: the collections in these lines of the product's output, by kind (count, longest and total pause). */
function gcPauses(lines: string[]): string {
  const byKind = new Map<string, number[]>();
  for (const line of lines) {
    const match = /ms: (Scavenge|Mark-Compact|Minor Mark-Sweep|Mark-Sweep)\b.*?, ([\d.]+) \/ [\d.]+ ms/.exec(line);
    if (!match) continue;
    const pauses = byKind.get(match[1]) ?? [];
    pauses.push(Number(match[2]));
    byKind.set(match[1], pauses);
  }
  return [...byKind]
    .map(([kind, pauses]) => `; ${kind} ${pauses.length}× max ${Math.max(...pauses).toFixed(1)} total ${pauses.reduce((a, b) => a + b, 0).toFixed(0)} ms`)
    .join('');
}

async function main() {
  buildServer();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/dc_bench_search_${records}`;
  const dataDir = path.join(os.tmpdir(), `dc_bench_search_${records}`);
  const port = await freePort();
  if (profileDir) {
    // A profile of an earlier run must not be taken for this one's.
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const env: Record<string, string> = {
    RUN_MODE: 'embedded',
    DATABASE_URL: url.toString(),
    PORT: String(port),
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
    SEARCH_DRIVER: driver,
  };
  const preloads = [process.env.V8_FLAGS ? 'v8-flags-preload.cjs' : '', profileDir ? 'cpu-profile-preload.cjs' : ''].filter(Boolean);
  const nodeOptions = [process.env.PRODUCT_NODE_OPTIONS ?? '', ...preloads.map((file) => `--require=${path.join(__dirname, file)}`)].join(' ').trim();
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  if (process.env.V8_FLAGS) env.BENCH_V8_FLAGS = process.env.V8_FLAGS;
  if (profileDir)
    Object.assign(env, { PROF_DIR: profileDir, PROF_KIND: ['heap', 'retained', 'promoted'].includes(process.env.PROFILE!) ? process.env.PROFILE! : 'cpu' });
  const app = startNode('gateway', 'dist/apps/gateway/src/main.js', env);
  lastLines = () => app.lines.slice(-30);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 600_000 });
    const token = await signIn(base, path.join(dataDir, 'mail'), 'benchviewer', PASSWORD);
    const started = Date.now();
    await fetch(`${base}/api/records/?query=river%20flow`, { headers: { authorization: `JWT ${token}` } });
    // A snapshot of this format being written in the background would take a core from the measurements.
    if (driver === 'in-process') await snapshotWritten(url.toString());
    console.log(
      `first search after ${((Date.now() - started) / 1000).toFixed(1)} s; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
    const pid = app.process.pid!;
    let n = 0;
    for (const c of CLASSES.filter((c) => !process.env.ONLY || process.env.ONLY.split(',').includes(c.name))) {
      const auth = c.anonymous ? null : token;
      const target = c.follow ? await followNext(base, c.path, auth, c.follow) : `${base}${c.path}`;
      await run(target, auth, Math.min(200, requests));
      app.lines.splice(0);
      if (profileDir) process.kill(pid, 'SIGWINCH');
      const [cpu0, sys0, pg0, t0] = [cpuOf(pid), cpuOf(pid, 'system'), postgresCpu(), performance.now()];
      const latencies = await run(target, auth, requests);
      const [cpu1, sys1, pg1, t1] = [cpuOf(pid), cpuOf(pid, 'system'), postgresCpu(), performance.now()];
      if (profileDir) {
        process.kill(pid, 'SIGWINCH');
        await waitForFile(path.join(profileDir, `${n}.cpuprofile.done`));
      }
      const productLines = app.lines.splice(0);
      if (process.env.GC_LINES)
        console.log(
          productLines
            .filter((line) => /Scavenge|Mark|pause=/.test(line))
            .slice(0, Number(process.env.GC_LINES))
            .join('\n'),
        );
      const gc = gcPauses(productLines);
      const at = (q: number) => latencies[Math.max(0, Math.ceil(q * latencies.length) - 1)].toFixed(1);
      console.log(
        `${c.name.padEnd(22)} p50 ${at(0.5)} p99 ${at(0.99)} ms; product CPU ${(((cpu1 - cpu0) * 1000) / requests).toFixed(2)} ms/req (system ${(((sys1 - sys0) * 1000) / requests).toFixed(2)}); postgres CPU ${(((pg1 - pg0) * 1000) / requests).toFixed(2)} ms/req; ${((requests / (t1 - t0)) * 1000).toFixed(0)} req/s${profileDir ? `; profile ${n}` : ''}${gc}`,
      );
      n++;
    }
    console.log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
  } finally {
    await app.stop();
  }
}

main().catch((error) => {
  console.error(error);
  console.error(lastLines().join('\n'));
  process.exit(1);
});
