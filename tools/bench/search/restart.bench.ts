/**
 * Start-up of the in-process search index (issue 13): how long a restarted index takes to answer
 * its first search when it loads the newest snapshot of its memory (and applies the writes after
 * it), against the peer measured in the same run on the same store: the full load of every record,
 * as before snapshots. Also what writing the snapshot costs the running index: wall and CPU time,
 * size, and how long searches sent meanwhile waited (the longest the event loop was held).
 *
 * Usage: npm run bench:search-restart -- [records=100000] [rounds=2]
 * Seeds dc_bench_search_restart_<records> with the search benchmark's synthetic records (kept, so a
 * second run skips seeding). Writes the bench:search:restart:<records> section of docs/benchmarks.md.
 */
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from 'pg';
import { InProcessSearchIndex, type SearchQuery, type SearchViewer } from '@dc/search-index';
import { keptDatabase } from '../process-probe';
import { syntheticCatalogue, VOCABULARY_SIZE, ZIPF_EXPONENT } from './synthetic-records';
import { sectionMarkers, writeBenchmarkSection } from '../bench-support';

const records = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 2);
if (!Number.isInteger(records) || records < 1000 || !Number.isInteger(rounds) || rounds < 1)
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
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
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
  /** Highest RSS above the level before the start, and the heap the memory holds once loaded. */
  peakRss: number;
  heapHeld: number;
  answers: string;
}

/** Starts an index and waits for its first search; the memory comes from a snapshot when one is there. */
async function start(url: string): Promise<Start> {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
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
  gc();
  return {
    index,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRss: peakRss - rssBefore,
    heapHeld: process.memoryUsage().heapUsed - heapBefore,
    answers,
  };
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
      const full = await start(url);
      if (full.index.memoryOrigin !== 'store') throw new Error(`full load started from ${full.index.memoryOrigin}`);
      const write = await snapshotWrite(full.index);
      await full.index.close();
      bytes = Number((await db.query('SELECT bytes FROM search.memory_snapshots')).rows[0]?.bytes ?? 0);
      stored = Number((await db.query('SELECT sum(length(data)) AS stored FROM search.memory_snapshot_chunks')).rows[0]?.stored ?? 0);
      if (bytes === 0) throw new Error('no snapshot written');
      const restored = await start(url);
      await restored.index.close();
      if (restored.index.memoryOrigin !== 'snapshot')
        throw new Error(`restart from the snapshot started from ${restored.index.memoryOrigin}: ${restored.index.lastSnapshotRejection}`);
      if (restored.answers !== full.answers) throw new Error('the restart from the snapshot answered otherwise than the full load');
      const row = (name: string, s: Start) =>
        `| ${round} | ${name} | ${s.seconds.toFixed(2)} | ${s.cpuSeconds.toFixed(2)} | ${mb(s.peakRss)} | ${mb(s.heapHeld)} |`;
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
      `Start: from creating the index to its first search answered ("river flow"); CPU is the process's (user + system); RSS peak is above the level before the start; ` +
      `heap held is what the loaded memory keeps after a collection. Both starts answered four queries identically. Snapshot size: ${mb(bytes)} MB, ${mb(stored)} MB stored (deflated).`,
    '',
    '| round | start | seconds | CPU s | RSS peak MB | heap held MB |',
    '| ---: | --- | ---: | ---: | ---: | ---: |',
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
