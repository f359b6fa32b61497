/**
 * Start-up of the in-process search index (issue 13): how long a restarted index takes to answer
 * its first search when it loads the newest snapshot of its memory (and applies the writes after
 * it), against the peer measured in the same run on the same store: the full load of every record,
 * as before snapshots. Also what writing the snapshot costs the running index: wall and CPU time,
 * size, and how long searches sent meanwhile waited (the longest the event loop was held).
 *
 * Each start runs in a process of its own (a restart is one), so neither its time nor its memory is
 * measured on a heap another start left behind.
 *
 * Usage: npm run bench:search-restart -- [records=100000] [rounds=2]
 * Seeds dc_bench_search_restart_<records> with the search benchmark's synthetic records (kept, so a
 * second run skips seeding). Writes the bench:search:restart:<records> section of docs/benchmarks.md.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { InProcessSearchIndex, type SearchQuery, type SearchViewer } from '@dc/search-index';
import { keptDatabase } from '../process-probe';
import { syntheticCatalogue, VOCABULARY_SIZE, ZIPF_EXPONENT } from './synthetic-records';
import { mib, sectionMarkers, writeBenchmarkSection } from '../bench-support';

/** Each start runs in a process of its own, started with one of these and the database's address: as a restarted service does. */
const RESTARTED = '--restarted';
const FULL_LOAD = '--full-load';
const child = process.argv[2] === RESTARTED || process.argv[2] === FULL_LOAD;
const records = child ? 0 : Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 2);
if (!child && (!Number.isInteger(records) || records < 1000 || !Number.isInteger(rounds) || rounds < 1))
  throw new Error('usage: bench:search-restart -- [records >= 1000] [rounds >= 1]');
const DB = `dc_bench_search_restart_${records}`;
const GENERATOR = `zipf-${ZIPF_EXPONENT}-${VOCABULARY_SIZE}-chronological-v1-in-process`;
const SEED_BATCH = 5000;
const viewer: SearchViewer = { userId: 'bench-viewer', organisationId: 'bench-viewer-org' };
const QUERIES: SearchQuery[] = [
  { text: 'river flow', viewer, view: 'all', page: 1, pageSize: 20 },
  { text: 'temperture', viewer, view: 'all', page: 1, pageSize: 20 },
  { viewer, view: 'own', page: 3, pageSize: 20 },
  { text: 'housing prices', viewer: null, view: 'all', page: 1, pageSize: 20 },
];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(', ');

async function seed(url: string, db: Client) {
  await db.query('CREATE TABLE IF NOT EXISTS public.bench_seed (records int, generator text)');
  const marker = (await db.query('SELECT * FROM public.bench_seed')).rows[0];
  const index = new InProcessSearchIndex({ connectionString: url, loadOnInit: false, snapshotAfterRows: 0 });
  await index.init();
  try {
    if (marker?.records === records && marker.generator === GENERATOR && (await index.count()) === records) return;
    console.log(`seeding ${records} records...`);
    await index.clear();
    const catalogue = syntheticCatalogue(viewer);
    for (let i = 0; i < records; i += SEED_BATCH)
      await index.upsert(Array.from({ length: Math.min(SEED_BATCH, records - i) }, (_, k) => catalogue.record(i + k)));
    await db.query('VACUUM ANALYZE search.memory_records');
    await db.query('TRUNCATE public.bench_seed');
    await db.query('INSERT INTO public.bench_seed VALUES ($1, $2)', [records, GENERATOR]);
  } finally {
    await index.close();
  }
}

interface Start {
  index: InProcessSearchIndex;
  seconds: number;
  cpuSeconds: number;
  /** Highest RSS above the level before the start; what the memory holds once loaded (after collections, steady): heap, array buffers, RSS. */
  peakRss: number;
  before: NodeJS.MemoryUsage;
  heapHeld: number;
  buffersHeld: number;
  rssHeld: number;
  answers: string;
}

/** Starts an index and waits for its first search; the memory comes from a snapshot when one is there. */
async function start(url: string): Promise<Start> {
  const before = await steadyMemory();
  const rssBefore = before.rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const index = new InProcessSearchIndex({ connectionString: url });
  await index.init();
  await index.search(QUERIES[0]);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const answers = JSON.stringify(await Promise.all(QUERIES.map(async (q) => (await index.search(q)).results.map((hit) => [hit.id, hit.score]))));
  return {
    index,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRss: peakRss - rssBefore,
    before,
    heapHeld: 0,
    buffersHeld: 0,
    rssHeld: 0,
    answers,
  };
}

/** What the loaded memory holds above the level before its start, steady (see steadyMemory). */
async function measureHeld(start: Start) {
  const held = await steadyMemory();
  start.heapHeld = held.heapUsed - start.before.heapUsed;
  start.buffersHeld = held.arrayBuffers - start.before.arrayBuffers;
  start.rssHeld = held.rss - start.before.rss;
}

/** Memory once garbage is collected and the collector has given back what it frees (not the peak). */
async function steadyMemory() {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  gc();
  return process.memoryUsage();
}

/** Waits for the snapshot the index is writing while searching without pause, as a busy service would. */
async function snapshotWrite(index: InProcessSearchIndex) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let done = false;
  const written = index.snapshotWritten().then(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const sent = performance.now();
    await index.search(QUERIES[latencies.length % QUERIES.length]);
    latencies.push(performance.now() - sent);
  }
  await written;
  const used = process.cpuUsage(cpu);
  delay.disable();
  latencies.sort((a, b) => a - b);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    maxLoopDelayMs: delay.max / 1e6,
    searches: latencies.length,
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    max: latencies.at(-1) ?? 0,
  };
}

type Write = Awaited<ReturnType<typeof snapshotWrite>>;
type Figures = Omit<Start, 'index' | 'before'> & { origin: string | null; rejection: string | null; load: string; write: Write | null };

/** A start in a fresh process (no heap left over from another start; its RSS from a process's start). */
async function startInFreshProcess(mode: string, url: string): Promise<Figures> {
  const script = path.join(__dirname, '../../scripts/run-ts.cjs');
  const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, script, __filename, mode, url], { maxBuffer: 2 ** 26 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Figures;
}

/** The child: one start, and for the full load the snapshot it writes, searched meanwhile. */
async function startChild(mode: string, url: string) {
  const load = os.loadavg()[0].toFixed(1);
  const started = await start(url);
  const write = mode === FULL_LOAD ? await snapshotWrite(started.index) : null;
  // The full load's once its snapshot is written, as the restored start (which writes none).
  await measureHeld(started);
  await started.index.close();
  const { index, before: _before, ...figures } = started;
  const result: Figures = { ...figures, origin: index.memoryOrigin, rejection: index.lastSnapshotRejection?.message ?? null, load, write };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function main() {
  const url = await keptDatabase(DB);
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await seed(url, db);
    const loadBefore = loadAverage();
    const rows: string[] = [];
    const writes: string[] = [];
    let bytes = 0;
    let stored = 0;
    for (let round = 1; round <= rounds; round++) {
      // The peer: no snapshot, every record loaded; it then writes the snapshot the next start loads.
      await db.query('DELETE FROM search.memory_snapshots');
      const full = await startInFreshProcess(FULL_LOAD, url);
      if (full.origin !== 'store') throw new Error(`full load started from ${full.origin}`);
      const write = full.write!;
      bytes = Number((await db.query('SELECT bytes FROM search.memory_snapshots')).rows[0]?.bytes ?? 0);
      stored = Number((await db.query('SELECT sum(length(data)) AS stored FROM search.memory_snapshot_chunks')).rows[0]?.stored ?? 0);
      if (bytes === 0) throw new Error('no snapshot written');
      const restored = await startInFreshProcess(RESTARTED, url);
      if (restored.origin !== 'snapshot') throw new Error(`restart from the snapshot started from ${restored.origin}: ${restored.rejection}`);
      if (restored.answers !== full.answers) throw new Error('the restart from the snapshot answered otherwise than the full load');
      const row = (name: string, s: Figures) =>
        `| ${round} | ${name} | ${s.load} | ${s.seconds.toFixed(2)} | ${s.cpuSeconds.toFixed(2)} | ${mib(s.peakRss)} | ${mib(s.heapHeld)} | ${mib(s.buffersHeld)} | ${mib(s.rssHeld)} |`;
      rows.push(row('from the snapshot', restored), row('full load of the store (peer)', full));
      writes.push(
        `| ${round} | ${write.seconds.toFixed(2)} | ${write.cpuSeconds.toFixed(2)} | ${write.maxLoopDelayMs.toFixed(0)} | ${write.searches} | ${write.p50.toFixed(1)} / ${write.max.toFixed(1)} |`,
      );
      console.log(rows.slice(-2).join('\n'));
      console.log(writes.at(-1));
    }
    writeResults(rows, writes, bytes, stored, loadBefore, loadAverage());
  } finally {
    await db.end();
  }
}

function writeResults(rows: string[], writes: string[], bytes: number, stored: number, loadBefore: string, loadAfter: string) {
  const name = `bench:search:restart:${records}`;
  const { start, end } = sectionMarkers(name);
  const cpus = os.cpus();
  const section = [
    start,
    `### Restarting the in-process index, ${records.toLocaleString('en')} records`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:search-restart -- ${records} ${rounds}\` on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ` +
      `Node ${process.version}, the local PostgreSQL server, the search benchmark's synthetic records. Load average (1, 5, 15 min) before / after: ${loadBefore} / ${loadAfter}. ` +
      `Start: from creating the index to its first search answered ("river flow"), each start in a fresh process (as a restarted service); ` +
      `the machine is shared (2 cores; other benchmarks may run alongside): the load at each start is in the table; ` +
      `CPU is the process's (user + system); RSS peak is above the level before the start; ` +
      `held is what the loaded memory keeps above the level before the start, steady (after a collection, a second's rest and another collection; the full load's once its snapshot is written): ` +
      `heap, array buffers (typed arrays, outside the heap) and RSS (the target: 600 MB per million records, issue 26). Both starts answered four queries identically. ` +
      `Snapshot size: ${mib(bytes)} MB, ${mib(stored)} MB stored (deflated).`,
    '',
    '| round | start | load (1 min) at start | seconds | CPU s | RSS peak MB | heap held MB | array buffers held MB | RSS held MB |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'Writing the snapshot after the full load, in the background while the same process searched without pause:',
    '',
    '| round | write s | process CPU s (searches included) | longest event-loop hold ms | searches meanwhile | search p50 / max ms |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    ...writes,
    end,
  ].join('\n');
  writeBenchmarkSection(name, section);
}

(child ? startChild(process.argv[2], process.argv[3]) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
