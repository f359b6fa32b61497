// Does profiling a large file starve the API (issue 13)? The built product in embedded mode (one
// process: gateway, catalogue with its extraction worker, search) on real PostgreSQL; one signed-in
// client at one connection alternates a search and a record read for --seconds, three times: idle
// (the peer), while the catalogue extracts full statistics of a large generated CSV uploaded through
// the API, and idle again afterwards (the machine is shared: its load may change during the run).
// The upload is over before the middle window opens, which opens once the file's extraction_status
// is `running` and must close before it ends (checked, and said in the report).
// Each variant is its own product start: the extraction in a worker thread running 5 nicer (the
// default), in a worker thread at the process's priority, with only the extraction library's CSV
// threads (the event loop's thread forwards the file's chunks to them, 32 MiB and more), and all in
// the event loop's own thread (how it was before issue 13).
// Build first (npm run build). Usage: npm run bench:profiling-api [-- --size-mb=200 --seconds=15 --variants=thread,thread-nice0,thread-nice19,csv-threads,loop --no-write]
import { execFileSync } from 'node:child_process';
import { openAsBlob, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { createTestDatabase, buildServer, startEmbeddedProduct } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';
import { generatedCsv } from '../generated-csv';
import { cpuMsOf, memoryOf } from '../process-probe';
import { type LatencyFigures, latencyFigures, starvationVerdict } from './latency';

const argument = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SIZE_MB = argument('size-mb', 200);
const SECONDS = argument('seconds', 15);
const WRITE = !process.argv.includes('--no-write');
const VARIANTS = (process.argv.find((a) => a.startsWith('--variants='))?.split('=')[1] ?? 'thread,thread-nice0,csv-threads,loop').split(',');

interface Variant {
  key: string;
  label: string;
  env: Record<string, string>;
}

const ALL_VARIANTS: Variant[] = [
  { key: 'thread', label: 'extraction in a worker thread, 5 nicer (default)', env: {} },
  { key: 'thread-nice0', label: "extraction in a worker thread at the process's priority (EXTRACTION_THREAD_NICE=0)", env: { EXTRACTION_THREAD_NICE: '0' } },
  { key: 'thread-nice19', label: 'extraction in a worker thread at the lowest priority (EXTRACTION_THREAD_NICE=19)', env: { EXTRACTION_THREAD_NICE: '19' } },
  {
    key: 'csv-threads',
    label: "only the library's CSV threads (EXTRACTION_THREAD_MIN_BYTES above the file size, EXTRACTION_THREADS=2)",
    env: { EXTRACTION_THREAD_MIN_BYTES: String(2 ** 40) },
  },
  {
    key: 'loop',
    label: "extraction in the event loop's thread (EXTRACTION_THREAD_MIN_BYTES above the file size, EXTRACTION_THREADS=1: before issue 13)",
    env: { EXTRACTION_THREAD_MIN_BYTES: String(2 ** 40), EXTRACTION_THREADS: '1' },
  },
];
const RECORDS = 20;
const PASSWORD = 'profiling-api bench 42';
const SECTION = 'bench:profiling-api';
const uptime = () => execFileSync('uptime').toString().trim();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Call {
  label: string;
  path: string;
}

interface Phase {
  name: string;
  figures: LatencyFigures[];
  /** CPU time the product's process used per second of the phase (ms/s). */
  productCpuPerSecond: number;
  loadAfter: string;
}

/** One keep-alive connection, the calls taken in turn for `seconds`; answers each call's latencies (ms). */
async function drive(base: string, token: string, calls: Call[], seconds: number): Promise<number[][]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = (call: Call) =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request(new URL(call.path, base), { agent, headers: { authorization: `JWT ${token}` } }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${call.label}: HTTP ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const samples = calls.map(() => [] as number[]);
  const end = performance.now() + seconds * 1000;
  try {
    while (performance.now() < end) for (const [i, call] of calls.entries()) samples[i].push(await once(call));
  } finally {
    agent.destroy();
  }
  return samples;
}

async function measurePhase(name: string, base: string, token: string, calls: Call[], pid: number): Promise<Phase> {
  const cpuBefore = cpuMsOf(pid);
  const started = performance.now();
  const samples = await drive(base, token, calls, SECONDS);
  const seconds = (performance.now() - started) / 1000;
  const phase = { name, figures: samples.map((s) => latencyFigures(s, seconds)), productCpuPerSecond: (cpuMsOf(pid) - cpuBefore) / seconds, loadAfter: load() };
  console.log(
    `${name}: ${phase.figures.map((f, i) => `${calls[i].label} p50 ${f.p50.toFixed(1)} p99 ${f.p99.toFixed(1)} ms`).join('; ')}; product CPU ${phase.productCpuPerSecond.toFixed(0)} ms/s`,
  );
  return phase;
}

interface RecordFile {
  extraction_status: 'pending' | 'running' | 'done' | 'failed' | 'skipped';
  META: { STATUS?: string; FILE?: { TOTAL_ROWS?: number } } | null;
}

async function fileOf(base: string, token: string, recordId: string): Promise<RecordFile> {
  const response = await fetch(`${base}/api/records/${recordId}/`, { headers: { authorization: `JWT ${token}` } });
  if (response.status !== 200) throw new Error(`record read failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { FILES: RecordFile[] }).FILES[0];
}

/** Polls the uploaded file until its extraction_status passes `until`; answers the status and when it was seen. */
async function waitForStatus(
  base: string,
  token: string,
  recordId: string,
  until: (status: RecordFile['extraction_status']) => boolean,
  everyMs: number,
): Promise<{ file: RecordFile; at: number }> {
  const deadline = Date.now() + 30 * 60_000;
  while (Date.now() < deadline) {
    const file = await fileOf(base, token, recordId);
    if (until(file.extraction_status)) return { file, at: performance.now() };
    await sleep(everyMs);
  }
  throw new Error('the extraction did not reach the awaited status in 30 min');
}

/**
 * Waits until the product uses less than `quietMsPerSecond` of CPU per second: after an extraction the
 * same process goes on with the work it started (the relations service reads the file's sketches).
 * Answers how long that took (ms).
 */
async function waitForQuiet(pid: number, quietMsPerSecond = 100, timeoutMs = 180_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const cpu = cpuMsOf(pid);
    await sleep(1000);
    if (cpuMsOf(pid) - cpu < quietMsPerSecond) break;
  }
  return performance.now() - started;
}

interface VariantResult {
  variant: Variant;
  phases: Phase[];
  verdicts: string[];
  lines: string[];
}

/** One product start: seed, idle phase, upload, the phase during extraction, settle, idle phase. */
async function runVariant(variant: Variant, csv: string, bytes: number, calls: (ids: string[]) => Call[]): Promise<VariantResult> {
  const db = await createTestDatabase('dc_bench_profiling_api');
  const dataDir = `/tmp/${db.name}`;
  console.log(`--- ${variant.label}`);
  const {
    base,
    app: product,
    pid,
  } = await startEmbeddedProduct('profiling-bench', {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
    ...variant.env,
  });
  try {
    const token = await signIn(base, path.join(dataDir, 'mail'), 'profilingbench', PASSWORD);
    const recordIds: string[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const created = await fetch(`${base}/api/records/`, {
        method: 'POST',
        headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Rainfall station ${i}`, description: `Daily rainfall totals of station ${i}`, access: 'OP' }),
      });
      if (created.status !== 201) throw new Error(`record not created: ${created.status} ${await created.text()}`);
      recordIds.push(((await created.json()) as { id: string }).id);
    }
    const driven = calls(recordIds);
    // Warm-up (and the seeded records must be found by then: the index is fed by events).
    await drive(base, token, driven, 3);
    const found = (await (await fetch(`${base}${driven[0].path}`, { headers: { authorization: `JWT ${token}` } })).json()) as { count?: number };
    if (!found.count) throw new Error(`the search finds none of the seeded records: ${JSON.stringify(found).slice(0, 300)}`);

    const idleBefore = await measurePhase('idle before', base, token, driven, pid);

    const form = new FormData();
    for (const [name, value] of Object.entries({
      name: `Profiled ${SIZE_MB} MB`,
      description: 'A large generated CSV profiled while the API is measured',
      access: 'OP',
      extractOption: 'metadata',
    }))
      form.set(name, value);
    form.set('file', await openAsBlob(csv, { type: 'text/csv' }), path.basename(csv));
    const uploadStarted = performance.now();
    const uploadCpu = cpuMsOf(pid);
    const uploaded = await fetch(`${base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${token}` }, body: form });
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const uploadMs = performance.now() - uploadStarted;
    const uploadCpuMs = cpuMsOf(pid) - uploadCpu;
    const recordId = ((await uploaded.json()) as { id: string }).id;
    console.log(`uploaded ${bytes} bytes in ${(uploadMs / 1000).toFixed(1)} s`);

    const running = await waitForStatus(base, token, recordId, (s) => s !== 'pending', 100);
    if (running.file.extraction_status !== 'running')
      throw new Error(`the extraction ended (${running.file.extraction_status}) before the window opened: take a larger --size-mb`);
    const extractionCpu = cpuMsOf(pid);
    const peakBefore = memoryOf(pid).peak;
    const during = await measurePhase('during profiling', base, token, driven, pid);
    const windowInside = (await fileOf(base, token, recordId)).extraction_status === 'running';
    const done = await waitForStatus(base, token, recordId, (s) => s !== 'pending' && s !== 'running', 500);
    const extractionMs = done.at - running.at;
    const extractionCpuMs = cpuMsOf(pid) - extractionCpu;
    if (done.file.extraction_status !== 'done')
      throw new Error(`the extraction ended ${done.file.extraction_status}: ${JSON.stringify(done.file.META).slice(0, 500)}`);
    console.log(`extraction ${(extractionMs / 1000).toFixed(1)} s, ${done.file.META?.FILE?.TOTAL_ROWS} rows; window inside: ${windowInside}`);
    const settledMs = await waitForQuiet(pid);
    console.log(`product quiet ${(settledMs / 1000).toFixed(1)} s after the extraction`);
    const idleAfter = await measurePhase('idle after', base, token, driven, pid);
    const phases = [idleBefore, during, idleAfter];
    return {
      variant,
      phases,
      // Against the quieter of the two idle phases: the shared machine's load may have spiked in the other.
      verdicts: driven.map((call, i) => {
        const idle = [idleBefore.figures[i], idleAfter.figures[i]].sort((a, b) => a.p99 - b.p99)[0];
        return `${call.label}: ${starvationVerdict(idle, during.figures[i]).words}.`;
      }),
      lines: [
        `**${variant.label}.** Upload ${(uploadMs / 1000).toFixed(1)} s wall (${(uploadCpuMs / 1000).toFixed(1)} s product CPU), over before the window opened.`,
        `The window opened once the file's \`extraction_status\` read \`running\`; ${windowInside ? 'the file was still `running` when it closed, so the whole window lies inside the extraction' : '**the extraction had ended before the window closed**: take a larger --size-mb'}.`,
        `Extraction ${(extractionMs / 1000).toFixed(1)} s wall (\`running\` seen to \`done\` seen, polled every 0.1 / 0.5 s), ${(extractionCpuMs / 1000).toFixed(1)} s product CPU (the window's calls included),`,
        `${done.file.META?.FILE?.TOTAL_ROWS} rows; product peak RSS ${(peakBefore / 2 ** 20).toFixed(0)} MB before it, ${(memoryOf(pid).peak / 2 ** 20).toFixed(0)} MB after; the product was quiet again (< 100 ms CPU per s) ${(settledMs / 1000).toFixed(0)} s after it ended`,
        "(the relations service, in the same process, compares the new file's sketches).",
      ],
    };
  } finally {
    await product.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  buildServer();
  const csv = await generatedCsv(SIZE_MB);
  const bytes = statSync(csv).size;
  const uptimeBefore = uptime();
  const calls = (recordIds: string[]): Call[] => [
    { label: 'search `GET /api/records/?query=rainfall`', path: '/api/records/?query=rainfall' },
    { label: 'record read `GET /api/records/{id}/`', path: `/api/records/${recordIds[0]}/` },
  ];
  const results: VariantResult[] = [];
  for (const key of VARIANTS) {
    const variant = ALL_VARIANTS.find((v) => v.key === key);
    if (!variant) throw new Error(`unknown variant ${key}: ${ALL_VARIANTS.map((v) => v.key).join(', ')}`);
    results.push(await runVariant(variant, csv, bytes, calls));
  }
  const labels = calls(['{id}']).map((c) => c.label);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const rows = results.flatMap(({ variant, phases }) =>
    labels.flatMap((label, i) =>
      phases.map((p) => {
        const f = p.figures[i];
        return `| ${variant.key} | ${label} | ${p.name} | ${f.requests} | ${f.perSecond.toFixed(1)} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${ms(f.max)} | ${p.productCpuPerSecond.toFixed(0)} ms/s | ${p.loadAfter} |`;
      }),
    ),
  );
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  const text = [
    `<!-- ${SECTION}:start -->`,
    '## Profiling a large file while the API answers (issue 13)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} at commit \`${commit}\` on this project's machine (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}), shared with other jobs.`,
    `Command: \`npm run bench:profiling-api -- --size-mb=${SIZE_MB} --seconds=${SECONDS} --variants=${VARIANTS.join(',')}\` (tools/bench/profiling-api/profiling-api.bench.ts): the built`,
    'product in embedded mode (one process) on real PostgreSQL, one signed-in client on one keep-alive connection alternating a search and',
    `a read of a record for ${SECONDS} s per phase: idle (the peer), while the catalogue extracts full statistics (extractOption metadata)`,
    `of a generated CSV of ${(bytes / 1e6).toFixed(0)} MB (tools/bench/generated-csv.ts, the file of \`bench:extraction\`) uploaded through the API, and idle again once`,
    "the product is quiet. Each variant is its own product start, one after the other. Product CPU is the process's user + system time per second of the phase.",
    '',
    `\`uptime\` before: \`${uptimeBefore}\``,
    `\`uptime\` after: \`${uptime()}\``,
    '',
    '| variant | call | phase | requests | req/s | p50 | p95 | p99 | max | product CPU | load average after (1, 5, 15 min) |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    ...results.flatMap(({ lines, verdicts }) => [...lines, '', ...verdicts.map((v) => `- ${v}`), '']),
    `<!-- ${SECTION}:end -->`,
  ].join('\n');
  console.log(text);
  if (WRITE) writeBenchmarkSection(SECTION, text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
