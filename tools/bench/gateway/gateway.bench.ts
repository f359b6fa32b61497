// The gateway's own share of a request, at one connection: the same cheap calls through the gateway
// and straight to the service that answers them (distributed mode), and in embedded mode the same
// call anonymous and signed in (the token check is the difference). Built server (npm run build
// first). Writes its section of docs/benchmarks.md. Usage: npm run bench:gateway [-- --requests=3000 --only=embedded]
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createTestDatabase, startDistributedProduct, startEmbeddedProduct } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';

const argument = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const REQUESTS = argument('requests', 3000);
const WARM_UP = 300;
/** `--only=embedded` or `--only=distributed` measures one mode and leaves docs/benchmarks.md alone (while working). */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
const PASSWORD = 'gateway bench password 7';
const uptime = () => execFileSync('uptime').toString().trim();

interface Call {
  label: string;
  base: string;
  path: string;
  token?: string;
}

/** A keep-alive connection of its own per call; each call answers the time of one request, in ms. */
function caller(call: Call): { agent: Agent; once: () => Promise<{ ms: number; status: number }> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(call.path, call.base);
  const headers = call.token ? { authorization: `JWT ${call.token}` } : {};
  const once = () =>
    new Promise<{ ms: number; status: number }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: res.statusCode! }));
      });
      req.on('error', reject);
      req.end();
    });
  return { agent, once };
}

const ms = (value: number) => value.toFixed(2);
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User and system CPU time of the processes so far, from /proc (ms). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * One request at a time (one connection in use), the calls taken in turn, so a change in the
 * shared machine's load falls on every row alike rather than on whichever ran then.
 */
async function runAll(calls: Call[], pids: number[]): Promise<string[]> {
  const callers = calls.map(caller);
  const times = calls.map(() => [] as number[]);
  const statuses = calls.map(() => 0);
  for (let round = 0; round < WARM_UP + REQUESTS; round++) {
    for (const [i, c] of callers.entries()) {
      const { ms: took, status } = await c.once();
      statuses[i] = status;
      if (round >= WARM_UP) times[i].push(took);
    }
  }
  // CPU time the product's processes spend per call, each row on its own: unlike the latency, it
  // hardly grows when the shared machine's other jobs keep this one waiting for a core.
  const cpu: number[] = [];
  for (const c of callers) {
    const start = cpuMs(pids);
    for (let i = 0; i < REQUESTS; i++) await c.once();
    cpu.push((cpuMs(pids) - start) / REQUESTS);
  }
  for (const c of callers) c.agent.destroy();
  return calls.map((call, i) => {
    const sorted = times[i].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const row = `| ${call.label} | ${statuses[i]} | ${ms(at(0.5))} ms | ${ms(at(0.99))} ms | ${ms(cpu[i])} ms |`;
    console.log(row);
    return row;
  });
}

async function embedded(): Promise<string[]> {
  const db = await createTestDatabase('dc_bench_gateway');
  const dataDir = `/tmp/${db.name}`;
  const { base, app: product } = await startEmbeddedProduct('gateway-bench', {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
  });
  try {
    const token = await signIn(base, path.join(dataDir, 'mail'), 'gatewaybench', PASSWORD);
    return await runAll(
      [
        { label: 'embedded: GET /health/live (HTTP floor, no token)', base, path: '/health/live' },
        { label: 'embedded: GET /api/accessoptions/ anonymous', base, path: '/api/accessoptions/' },
        { label: 'embedded: GET /api/accessoptions/ signed in', base, path: '/api/accessoptions/', token },
        { label: 'embedded: GET /api/account/user-account/ signed in', base, path: '/api/account/user-account/', token },
      ],
      [product.process.pid!],
    );
  } finally {
    await product.stop();
    await db.drop();
  }
}

async function distributed(): Promise<string[]> {
  const product = await startDistributedProduct('dc_bench_gateway_dist');
  try {
    const gateway = product.gatewayUrl;
    const service = (name: 'catalogue' | 'identity') => `http://127.0.0.1:${product.ports[name]}`;
    const token = await signIn(gateway, product.mailDir, 'gatewaybench', PASSWORD);
    return await runAll(
      [
        { label: 'distributed: GET /api/accessoptions/ anonymous, catalogue directly', base: service('catalogue'), path: '/api/accessoptions/' },
        { label: 'distributed: GET /api/accessoptions/ anonymous, through the gateway', base: gateway, path: '/api/accessoptions/' },
        {
          label: 'distributed: GET /api/accessoptions/ signed in, catalogue directly (signature only)',
          base: service('catalogue'),
          path: '/api/accessoptions/',
          token,
        },
        {
          label: 'distributed: GET /api/accessoptions/ signed in, through the gateway (token check + proxy)',
          base: gateway,
          path: '/api/accessoptions/',
          token,
        },
        {
          label: 'distributed: GET /api/account/user-account/ signed in, identity directly',
          base: service('identity'),
          path: '/api/account/user-account/',
          token,
        },
        { label: 'distributed: GET /api/account/user-account/ signed in, through the gateway', base: gateway, path: '/api/account/user-account/', token },
      ],
      product.processes.map((p) => p.process.pid!),
    );
  } finally {
    await product.stop();
  }
}

async function main() {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  const before = uptime();
  const rows = [...(ONLY === 'distributed' ? [] : await embedded()), ...(ONLY === 'embedded' ? [] : await distributed())];
  const after = uptime();
  if (ONLY) return;
  const text = [
    '<!-- bench:gateway:start -->',
    '## Gateway: its own share of a request at one connection',
    '',
    `Command: \`npm run bench:gateway\` (tools/bench/gateway/gateway.bench.ts): ${REQUESTS} calls per row after ${WARM_UP} warm-up`,
    `calls, one request at a time, the rows taken in turn (each on its own keep-alive connection); the built product at commit \`${commit}\`, real PostgreSQL,`,
    `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}. The distributed rows compare the same call`,
    'through the gateway (token check at identity, remembered per token, then the proxy) with the service answering',
    'it directly; the embedded rows compare a call with and without a token in the one process.',
    '',
    `\`uptime\` before: \`${before}\``,
    `\`uptime\` after: \`${after}\``,
    '',
    '| call | status | p50 | p99 | CPU per call (all product processes) |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '<!-- bench:gateway:end -->',
  ].join('\n');
  writeBenchmarkSection('bench:gateway', text);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
