/**
 * Workspace search benchmark (issue 5). Seeds N synthetic record documents (see synthetic-records.ts)
 * through the search index's own bulk API, starts the product in embedded mode (one process) on that
 * database, signs in a real account (registered, activated from its mail, logged in), and drives
 * GET /api/records/ through the gateway with autocannon at 1 and 16 connections. The peer, measured
 * in the same run at the same concurrency after every gateway cell (the in-process peer's memory in
 * this process would otherwise pause autocannon with its collections), is the same query sent straight
 * to the index adapter (no HTTP, no gateway, no Nest), so the difference is what the service layers cost.
 *
 * Usage: npm run bench:search -- [records=100000] [seconds=10] [driver=in-process|postgres] [runs=1]
 * With several runs the product is restarted before each run's gateway cells (each restart timed, and
 * the product's resident memory read once it answers and after the run), and every run's p99 is
 * written beside the first run's table: a target holds only if it holds in each run.
 * The seeded database (dc_bench_search_<records>) is kept, so a second run skips seeding.
 * Results replace this size's and driver's section of docs/benchmarks.md (between
 * bench:search:<driver>:<records> markers; the PostgreSQL adapter's runs keep their older
 * bench:search:<records> sections, so the previous adapter's figures stay beside the new ones).
 * Deep pages are asked for as a client following the `next` links does: with the search-after
 * cursor of the page before (an adapter that cannot seek uses the page number).
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { InProcessSearchIndex, PostgresSearchIndex, SearchIndex, SearchQuery, SearchViewer } from '@dc/search-index';
import { buildServer, freePort, REPO_ROOT, startNode, waitForHttp } from '@dc/testing';
import { signIn } from '../bench-account';
import { followNext } from './follow-next';
import { page1, SEARCH_SCENARIOS as SCENARIOS, type SearchScenario } from './scenarios';
import { keptDatabase, memoryOf } from '../process-probe';
import { snapshotWritten } from './snapshot-wait';
import { syntheticCatalogue, VOCABULARY_SIZE, ZIPF_EXPONENT } from './synthetic-records';
import { BENCHMARKS_DOC, mib, sectionMarkers, writeBenchmarkSection } from '../bench-support';

const PASSWORD = 'bench search password 1';
const records = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 10);
const driver = process.argv[4] ?? 'in-process';
const runs = Number(process.argv[5] ?? 1);
if (!Number.isInteger(records) || records < 1000 || !(seconds > 0) || !['in-process', 'postgres'].includes(driver) || !Number.isInteger(runs) || runs < 1) {
  throw new Error('usage: bench:search -- [records >= 1000] [seconds > 0] [in-process|postgres] [runs >= 1]');
}
const DB = `dc_bench_search_${records}`;
/** Changes whenever synthetic-records.ts would produce other records, so an old seed is replaced. */
const GENERATOR = `zipf-${ZIPF_EXPONENT}-${VOCABULARY_SIZE}-chronological-v1-${driver}`;
const SEED_BATCH = 5000;
const CONNECTIONS = [1, 16];

interface Measure {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
}

/** Nearest-rank percentiles of raw latencies (ms). */
function summarise(latencies: number[], elapsedSeconds: number): Measure {
  if (latencies.length === 0) throw new Error('no request completed');
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)].toFixed(1));
  return { requests: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), rps: Math.round(sorted.length / elapsedSeconds) };
}

/** autocannon through the gateway; every response must be 2xx, latencies are taken raw from each response. */
async function viaGateway(url: string, token: string | null, connections: number): Promise<Measure> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, headers: token ? { authorization: `JWT ${token}` } : {} }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  const failed = [...statuses].filter(([status]) => status < 200 || status > 299);
  if (failed.length > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: non-2xx or failed requests: ${JSON.stringify({ statuses: Object.fromEntries(statuses), errors: result.errors, timeouts: result.timeouts })}`,
    );
  }
  return summarise(latencies, elapsed);
}

/** The peer: the same query straight to the index adapter, same concurrency and duration. */
async function direct(index: SearchIndex, query: SearchQuery, connections: number): Promise<Measure> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const begin = performance.now();
        await index.search(query);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return summarise(latencies, (performance.now() - started) / 1000);
}

/** The account in the token, as the search service sees it. */
function viewerOf(token: string): SearchViewer {
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  return { userId: claims.sub, organisationId: claims.org };
}

/** Seeds the index unless it already holds this size, generator and viewer; true when it did. */
async function seed(url: string, index: SearchIndex, viewer: SearchViewer): Promise<boolean> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('CREATE TABLE IF NOT EXISTS public.bench_seed (records int, generator text, user_id text, organisation_id text)');
    const marker = (await db.query('SELECT * FROM public.bench_seed')).rows[0];
    const current =
      marker && marker.records === records && marker.generator === GENERATOR && marker.user_id === viewer.userId && (await index.count()) === records;
    if (current) return false;
    console.log(`seeding ${records} records...`);
    await index.clear();
    const catalogue = syntheticCatalogue(viewer);
    const started = Date.now();
    for (let i = 0; i < records; i += SEED_BATCH) {
      await index.upsert(Array.from({ length: Math.min(SEED_BATCH, records - i) }, (_, k) => catalogue.record(i + k)));
      if ((i / SEED_BATCH) % 20 === 19) console.log(`  ${i + SEED_BATCH} records, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    for (const table of driver === 'postgres' ? ['search.records', 'search.record_documents'] : ['search.memory_records'])
      await db.query(`VACUUM ANALYZE ${table}`);
    await db.query('TRUNCATE public.bench_seed');
    await db.query('INSERT INTO public.bench_seed VALUES ($1, $2, $3, $4)', [records, GENERATOR, viewer.userId, viewer.organisationId]);
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return true;
  } finally {
    await db.end();
  }
}

/** Share of records containing every word of the text, from every 100th generated record (for the commentary; not timed). */
function matchShare(viewer: SearchViewer, text: string): string {
  const catalogue = syntheticCatalogue(viewer);
  const words = text.toLowerCase().split(/\s+/);
  let sampled = 0;
  let matched = 0;
  for (let i = 0; i < records; i += 100) {
    const doc = catalogue.record(i);
    const all = new Set(
      [doc.name, doc.description, ...doc.headers, ...doc.words]
        .join(' ')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u),
    );
    sampled++;
    if (words.every((word) => all.has(word))) matched++;
  }
  return `${((matched / sampled) * 100).toFixed(1)}%`;
}

function startProduct(url: string, dataDir: string, port: number) {
  return startNode('gateway', 'dist/apps/gateway/src/main.js', {
    RUN_MODE: 'embedded',
    DATABASE_URL: url,
    PORT: String(port),
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
    SEARCH_DRIVER: driver,
  });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(', ');

interface Measured {
  scenario: SearchScenario;
  count: string;
  gateway: Measure[];
}

/** Every query class through the gateway at each number of connections. */
async function gatewayCells(base: string, token: string): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const scenario of SCENARIOS) {
    const auth = scenario.anonymous ? null : token;
    const target = scenario.follow ? await followNext(base, scenario.path, auth, scenario.follow) : `${base}${scenario.path}`;
    // One call first: a wrong setup (401, empty list) must stop the run, not be measured.
    const first = await fetch(target, { headers: auth ? { authorization: `JWT ${auth}` } : {} });
    if (first.status !== 200) throw new Error(`${target}: ${first.status} ${await first.text()}`);
    const body = (await first.json()) as { count: number; count_capped?: boolean; results: unknown[] };
    if (body.results.length === 0) throw new Error(`${target}: no results`);
    const gateway: Measure[] = [];
    for (const connections of CONNECTIONS) {
      gateway.push(await viaGateway(target, auth, connections));
      console.log(
        `${scenario.name}, ${connections} connection(s): gateway p50 / p95 / p99 ${gateway.at(-1)!.p50} / ${gateway.at(-1)!.p95} / ${gateway.at(-1)!.p99} ms`,
      );
    }
    measured.push({ scenario, count: `${body.count}${body.count_capped ? '+' : ''}`, gateway });
  }
  return measured;
}

/** Waits for the index's snapshot of this format, and says so when it took a while. */
async function snapshotWaited(url: string) {
  const seconds = await snapshotWritten(url);
  if (seconds > 2) console.log(`waited ${seconds.toFixed(0)} s for the index's snapshot to be written`);
}

async function main() {
  buildServer();
  const url = await keptDatabase(DB);
  const dataDir = path.join(os.tmpdir(), DB);
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  let app = startProduct(url, dataDir, port);
  // The in-process index seeds its store without loading it; the peer loads it once seeded.
  const seeder: SearchIndex =
    driver === 'postgres'
      ? new PostgresSearchIndex({ connectionString: url, schema: 'search', max: 16 })
      : new InProcessSearchIndex({ connectionString: url, schema: 'search', loadOnInit: false });
  let index = seeder;
  let seederOpen = true;
  let loadNote = '';
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 120_000 });
    const token = await signIn(base, path.join(dataDir, 'mail'), 'benchviewer', PASSWORD);
    const viewer = viewerOf(token);
    await seeder.init();
    await seed(url, seeder, viewer);
    if (driver !== 'postgres') {
      await seeder.close();
      seederOpen = false;
    }
    const loadBefore = loadAverage();
    const runNotes: string[] = [];
    const measuredRuns: Measured[][] = [];
    for (let run = 1; run <= runs; run++) {
      // A restart on the seeded index: how long until the first search answers (the in-process index loads its store).
      await app.stop();
      const restarted = Date.now();
      app = startProduct(url, dataDir, port);
      await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 600_000 });
      const firstSearch = await fetch(`${base}/api/records/?query=river%20flow`, { headers: { authorization: `JWT ${token}` } });
      if (firstSearch.status !== 200) throw new Error(`first search after the restart: ${firstSearch.status}`);
      const restartSeconds = ((Date.now() - restarted) / 1000).toFixed(1);
      const loaded = memoryOf(app.process.pid!).rss;
      if (driver !== 'postgres') await snapshotWaited(url);
      measuredRuns.push(await gatewayCells(base, token));
      const after = memoryOf(app.process.pid!);
      runNotes.push(
        `run ${run}: first search ${restartSeconds} s after the restart (process start included); the product's resident memory ${mib(loaded)} MiB once it answered, ` +
          `${mib(after.rss)} MiB after the run (peak ${mib(after.peak)} MiB), ${mib((after.rss * 1e6) / records)} MiB per million records after the run; load average after its cells ${loadAverage()}`,
      );
      console.log(runNotes.at(-1));
    }
    loadNote = ` Runs: ${runNotes.join('; ')}.`;
    const measured = measuredRuns[0];
    const loadAfterGateway = loadAverage();
    if (driver !== 'postgres') {
      index = new InProcessSearchIndex({ connectionString: url, schema: 'search' });
      await index.init();
      // The first search waits for the memory to load: not one to measure.
      await index.search({ ...page1, viewer });
    }
    const rows: string[] = [];
    for (const { scenario, count, gateway } of measured) {
      const query: SearchQuery = { ...scenario.query, viewer: scenario.anonymous ? null : viewer };
      if (scenario.follow) {
        // The peer asks for a deep page as the API does: with the last result of the page before.
        const last = (await index.search({ ...query, page: query.page - 1 })).results.at(-1)!;
        query.after = { score: last.score ?? null, changedAt: last.changedAt, id: last.id };
      }
      const share = query.text ? ` (every word in ${matchShare(viewer, query.text)} of records)` : '';
      for (const [i, connections] of CONNECTIONS.entries()) {
        const http = gateway[i];
        const peer = await direct(index, query, connections);
        const line = `| ${scenario.name}${share} | ${connections} | ${count} | ${http.p50} / ${http.p95} / ${http.p99} | ${http.rps} | ${peer.p50} / ${peer.p95} / ${peer.p99} | ${peer.rps} |`;
        console.log(line);
        rows.push(line);
      }
    }
    writeResults(rows, eachRunP99(measuredRuns), loadBefore, loadAfterGateway, loadAverage(), loadNote);
  } finally {
    if (index !== seeder || seederOpen) await index.close();
    await app.stop();
  }
}

/** One row per query class and connections: the gateway's p99 in each run, and the worst of them. */
function eachRunP99(measuredRuns: Measured[][]): string[] {
  if (measuredRuns.length < 2) return [];
  const header = measuredRuns.map((_, run) => `run ${run + 1}`);
  return [
    '',
    `The gateway's p99 (ms) in each run (the product restarted before each):`,
    '',
    `| query | connections | ${header.join(' | ')} | worst |`,
    `| --- | ---: | ${header.map(() => '---:').join(' | ')} | ---: |`,
    ...measuredRuns[0].flatMap(({ scenario }, s) =>
      CONNECTIONS.map((connections, c) => {
        const p99s = measuredRuns.map((run) => run[s].gateway[c].p99);
        return `| ${scenario.name} | ${connections} | ${p99s.join(' | ')} | ${Math.max(...p99s)} |`;
      }),
    ),
  ];
}

function writeResults(rows: string[], runRows: string[], loadBefore: string, loadAfterGateway: string, loadAfter: string, loadNote: string) {
  const name = driver === 'postgres' ? `bench:search:${records}` : `bench:search:${driver}:${records}`;
  const { start, end } = sectionMarkers(name);
  const cpus = os.cpus();
  const section = [
    start,
    `### ${records.toLocaleString('en')} records, ${driver === 'postgres' ? 'PostgreSQL adapter' : 'in-process index'} (SEARCH_DRIVER=${driver})`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:search -- ${records} ${seconds} ${driver} ${runs}\` on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ` +
      `embedded mode (one process) on the local PostgreSQL server, ${seconds} s per cell; every gateway cell first, then the peer's. ` +
      `The table is the first run's. Load average (1, 5, 15 min) before the gateway cells / after the last run's / after the peer's: ${loadBefore} / ${loadAfterGateway} / ${loadAfter}.${loadNote}`,
    '',
    '| query | connections | count | gateway p50 / p95 / p99 ms | gateway req/s | peer p50 / p95 / p99 ms | peer req/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    ...runRows,
    end,
  ].join('\n');
  writeBenchmarkSection(name, section);
  console.log(`written to ${path.relative(REPO_ROOT, BENCHMARKS_DOC)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
