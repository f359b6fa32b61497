// Load test of the embedded product: 200 concurrent clients for 60 s on a mix of sign-in, search,
// record reads and uploads, through the built gateway (npm run build first). Writes its section of
// docs/benchmarks.md. Usage: npm run bench:load [-- --connections=200 --seconds=60 --rounds=2]
// Memory growth is judged across rounds in the same process: a leak grows round after round, while
// the heap's high-water mark is reached in the first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer, freePort, startNode, waitForHttp } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';

const argument = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CONNECTIONS = argument('connections', 200);
const SECONDS = argument('seconds', 60);
const ROUNDS = argument('rounds', 2);
const USERS = 10;
const RECORDS = 40;
const PASSWORD = 'bench load password 1';

/** The product's resident memory, from /proc (MB). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const uptime = () => execFileSync('uptime').toString().trim();

function uploadBody(index: number): { contentType: string; body: string } {
  const boundary = `----bench${index}`;
  const csv = `station,day,rain_mm\n${Array.from({ length: 20 }, (_, i) => `S${index % 7},2026-01-${String((i % 28) + 1).padStart(2, '0')},${(i * 1.7).toFixed(1)}`).join('\n')}\n`;
  const parts = [
    ['name', `Load upload ${index}`],
    ['description', 'Rainfall uploaded under load'],
    ['access', 'OP'],
    ['allowDuplicate', 'true'],
  ].map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rain-${index}.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: parts.join('') + file };
}

async function main() {
  buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dc-bench-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const product = startNode('load', 'dist/apps/gateway/src/main.js', {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  });
  try {
    await waitForHttp(`${base}/health/ready`, { process: product, timeoutMs: 120_000 });
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) tokens.push(await signIn(base, path.join(dataDir, 'mail'), `loaduser${i}`, PASSWORD));
    const recordIds: string[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const created = await fetch(`${base}/api/records/`, {
        method: 'POST',
        headers: { authorization: `JWT ${tokens[i % USERS]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Rainfall station ${i}`, description: `Daily rainfall totals of station ${i}`, access: 'OP' }),
      });
      if (created.status !== 201) throw new Error(`record not created: ${created.status} ${await created.text()}`);
      recordIds.push(((await created.json()) as { id: string }).id);
    }
    // Warm-up, so "before" is the product at work rather than just started.
    await autocannon({ url: base, connections: 20, duration: 5, requests: [{ method: 'GET', path: '/api/recordsannon/?query=rain' }] });
    const pid = product.process.pid!;
    const memoryBefore = rssMb(pid);
    const loadBefore = uptime();

    let counter = 0;
    const auth = (n: number) => ({ authorization: `JWT ${tokens[n % USERS]}` });
    // Records are private to their owner's organisation: record i is read with its owner's token.
    const readRecord = <T extends object>(req: T) => {
      const i = counter++ % RECORDS;
      return { ...req, path: `/api/records/${recordIds[i]}/`, headers: auth(i) };
    };
    const round = () =>
      autocannon({
        url: base,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 30,
        // Each client goes round: sign in, search (signed in and anonymous), read two records, upload.
        requests: [
          {
            method: 'POST',
            path: '/api-token-auth/',
            setupRequest: (req) => ({
              ...req,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ username: `loaduser${counter++ % USERS}`, password: PASSWORD }),
            }),
          },
          { method: 'GET', setupRequest: (req) => ({ ...req, path: '/api/records/?query=rainfall', headers: auth(counter++) }) },
          { method: 'GET', path: '/api/recordsannon/?query=station' },
          { method: 'GET', setupRequest: (req) => readRecord(req) },
          { method: 'GET', setupRequest: (req) => readRecord(req) },
          {
            method: 'POST',
            setupRequest: (req) => {
              const { contentType, body } = uploadBody(counter++);
              return { ...req, path: '/api/records/', headers: { ...auth(counter), 'content-type': contentType }, body };
            },
          },
        ],
      });
    const rows: string[] = [];
    const memory: string[] = [];
    for (let n = 1; n <= ROUNDS; n++) {
      const result = await round();
      const memoryAfter = rssMb(pid);
      // Extraction of the uploads goes on after the run; memory is read again once it has settled.
      await new Promise((r) => setTimeout(r, 30_000));
      const memorySettled = rssMb(pid);
      const statuses = Object.entries(result.statusCodeStats ?? {})
        .map(([code, { count }]) => `${code}: ${count}`)
        .join(', ');
      // autocannon counts time-outs among its errors.
      const errors = result.errors + result.non2xx;
      rows.push(
        `| ${n} | ${result.requests.total} | ${errors} (${result.timeouts}, ${result.errors - result.timeouts}, ${result.non2xx}) | ${statuses} | ${result.requests.average.toFixed(1)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.latency.max} ms |`,
      );
      memory.push(`round ${n}: ${memoryAfter.toFixed(0)} MB at its end, ${memorySettled.toFixed(0)} MB 30 s later once the queued extractions had run`);
    }
    const loadAfter = uptime();

    const text = `<!-- bench:load:start -->
## Load: ${CONNECTIONS} concurrent clients for ${SECONDS} s (embedded mode)

Measured ${new Date().toISOString().slice(0, 10)} on this project's machine (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}), shared with other jobs.
Command: \`npm run bench:load\` (tools/bench/load/load.bench.ts, autocannon ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s, against the built
product in embedded mode with its embedded PostgreSQL; ${USERS} accounts, ${RECORDS} records made beforehand). Each client goes round a mix of
six calls: sign in (\`POST /api-token-auth/\`, argon2id), search signed in (\`GET /api/records/?query=\`), search anonymous
(\`GET /api/recordsannon/?query=\`), two record reads (\`GET /api/records/{id}/\`) and an upload (\`POST /api/records/\`,
multipart with a 20-row CSV, which also queues a metadata extraction).

\`uptime\` before: \`${loadBefore}\`
\`uptime\` after: \`${loadAfter}\`

${ROUNDS} rounds of ${SECONDS} s one after the other against the same process, so that memory growth shows as growth from round to round.

| round | requests | errors (time-outs at 30 s, other connection errors, non-2xx) | status codes | throughput (req/s, mean) | latency p50 | latency p99 | max |
|---:|---:|---:|---|---:|---:|---:|---:|
${rows.join('\n')}

Product memory (RSS of the one process; its embedded PostgreSQL runs apart): ${memoryBefore.toFixed(0)} MB after the warm-up;
${memory.join(';\n')}.
Load average at the end (1, 5, 15 min): ${load()}.
<!-- bench:load:end -->`;
    writeBenchmarkSection('bench:load', text);
    console.log(text);
  } finally {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
