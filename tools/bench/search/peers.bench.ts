/**
 * The in-process index beside embedded peers (issue 26): SQLite FTS5 through Node's built-in
 * node:sqlite, and MiniSearch, on the search benchmark's synthetic corpus and query classes, with
 * the same visibility rule and results page semantics (peers/*.ts, one adapter per engine).
 *
 * Each engine runs in its own processes (peers/child.ts), one after the other: one builds it from
 * the records in memory and persists it; a fresh one restores it (the restart: until the first
 * search is answered), then measures every query class for `seconds` at 1 and 16 callers. Every
 * page measured is checked against the viewer's visibility first (a leak stops the run), and page
 * 1 of each class is compared with ours.
 *
 * Usage: npm run bench:search-peers -- [records=100000] [seconds=5]
 * Writes the bench:search:peers:<records> section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mib, sectionMarkers, writeBenchmarkSection } from '../bench-support';
import { CONNECTIONS, ENGINES, type BuildReport, type EngineName, type Measure, type ServeReport } from './peers/child';
import { PEER_SCENARIOS } from './peers/scenarios';

const records = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 5);
// Deep page 250 of the empty query needs 5,000 visible records, deep page 25 of "river flow" 500 matches.
if (!Number.isInteger(records) || records < 100_000 || !(seconds > 0)) throw new Error('usage: bench:search-peers -- [records >= 100000] [seconds > 0]');

const REPO = path.resolve(__dirname, '../../..');
const CHILD = path.join(__dirname, 'peers', 'child.ts');
const LABEL: Record<EngineName, string> = {
  ours: 'ours (in-process index)',
  'sqlite-fts5': 'SQLite FTS5 bm25',
  'sqlite-fts5-tiers': "SQLite FTS5, ours' ranking",
  minisearch: 'MiniSearch 7.2',
};
/** Short names for column heads. */
const SHORT: Record<EngineName, string> = { ours: 'ours', 'sqlite-fts5': 'SQLite bm25', 'sqlite-fts5-tiers': 'SQLite tiers', minisearch: 'MiniSearch' };

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(', ');

function child<T>(engine: EngineName, phase: 'build' | 'serve', dir: string): T {
  const out = path.join(dir, `${phase}.json`);
  // A heap limit well above V8's default: MiniSearch at a million records holds gigabytes.
  const run = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=16384',
      path.join(REPO, 'tools/scripts/run-ts.cjs'),
      CHILD,
      engine,
      phase,
      String(records),
      String(seconds),
      dir,
      out,
    ],
    {
      cwd: REPO,
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) throw new Error(`${engine} ${phase} failed (exit ${run.status ?? run.signal})`);
  return JSON.parse(readFileSync(out, 'utf8')) as T;
}

interface Run {
  engine: EngineName;
  build: BuildReport;
  serve: ServeReport;
  loadAfter: string;
}

function main() {
  const root = path.join(os.tmpdir(), `dc-bench-search-peers-${records}`);
  const loadBefore = loadAverage();
  const runs: Run[] = [];
  for (const engine of ENGINES) {
    const dir = path.join(root, engine);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    console.log(`${LABEL[engine]}: building ${records} records...`);
    const build = child<BuildReport>(engine, 'build', dir);
    console.log(`${LABEL[engine]}: built in ${build.buildSeconds.toFixed(2)} s; restarting and measuring...`);
    const serve = child<ServeReport>(engine, 'serve', dir);
    runs.push({ engine, build, serve, loadAfter: loadAverage() });
    rmSync(dir, { recursive: true, force: true });
  }
  writeResults(runs, loadBefore);
}

/** In words: by how much the fastest peer trails ours (or leads it) per query class at 1 caller, and where a peer costs less. */
function summarise(ours: Run, peers: Run[]): string {
  const ratios = PEER_SCENARIOS.map((scenario, s) => {
    const best = Math.min(...peers.map((run) => run.serve.scenarios[s].measures[0].p50));
    return { name: scenario.name, ratio: best / Math.max(ours.serve.scenarios[s].measures[0].p50, 0.005) };
  }).sort((a, b) => a.ratio - b.ratio);
  const slower = ratios.filter((r) => r.ratio < 1);
  const times = (r: { ratio: number }) => `${r.ratio >= 10 ? r.ratio.toFixed(0) : r.ratio.toFixed(1)}×`;
  const latency =
    slower.length === 0
      ? `At 1 caller, ours answered every query class faster than the fastest peer on it, by ${times(ratios[0])} (${ratios[0].name}) to ${times(ratios.at(-1)!)} (${ratios.at(-1)!.name}) at p50.`
      : `At 1 caller, a peer was faster than ours on: ${slower.map((r) => `${r.name} (${(1 / r.ratio).toFixed(1)}× faster)`).join('; ')}.`;
  const cheaper = (label: string, value: (run: Run) => number) => {
    const better = peers.filter((run) => value(run) < value(ours));
    return better.length === 0
      ? []
      : [`${label}: ${better.map((run) => `${SHORT[run.engine]} ${value(run).toFixed(2)} against ours ${value(ours).toFixed(2)}`).join(', ')}`];
  };
  const costs = [
    ...cheaper('build s', (run) => run.build.buildSeconds),
    ...cheaper('restart s', (run) => run.serve.restartSeconds),
    ...cheaper('heap after restart MB', (run) => run.serve.heapBytes / 2 ** 20),
    ...cheaper('RSS after restart MB', (run) => run.serve.rssBytes / 2 ** 20),
  ];
  return `${latency} ${costs.length === 0 ? 'No peer cost less to build, restart or hold.' : `A peer cost less on: ${costs.join('; ')}.`}`;
}

const cell = (m: Measure) => `${m.p50} / ${m.p95} / ${m.p99}`;

function writeResults(runs: Run[], loadBefore: string) {
  const name = `bench:search:peers:${records}`;
  const { start, end } = sectionMarkers(name);
  const cpus = os.cpus();
  const ours = runs.find((run) => run.engine === 'ours')!;
  const peers = runs.filter((run) => run !== ours);
  const engines = runs.map((run) => run.engine);
  const costs = runs.map(
    ({ engine, build, serve }) =>
      `| ${LABEL[engine]} | ${build.buildSeconds.toFixed(2)} | ${mib(build.heapBytes)} | ${build.persistSeconds.toFixed(2)} | ${mib(build.indexBytes)}${build.documentsBytes ? ` + ${mib(build.documentsBytes)}` : ''} | ` +
      `${serve.restartSeconds.toFixed(2)}${serve.documentsSeconds ? ` (${serve.documentsSeconds.toFixed(2)})` : ''} | ${mib(serve.heapBytes)} | ${mib(serve.rssBytes)} |`,
  );
  const latency: string[] = [];
  const agreement: string[] = [];
  PEER_SCENARIOS.forEach((scenario, s) => {
    for (const [c, callers] of CONNECTIONS.entries()) {
      const p50 = ours.serve.scenarios[s].measures[c].p50;
      const ratios = peers.map((run) => (p50 > 0 ? `${(run.serve.scenarios[s].measures[c].p50 / p50).toFixed(0)}×` : 'n/a'));
      latency.push(
        `| ${scenario.name} | ${callers} | ${runs.map((run) => `${cell(run.serve.scenarios[s].measures[c])} | ${run.serve.scenarios[s].measures[c].rps}`).join(' | ')} | ${ratios.join(' / ')} |`,
      );
    }
    const ids = new Set(ours.serve.scenarios[s].ids);
    const overlap = peers.map((run) => {
      const page = run.serve.scenarios[s].ids;
      return `${page.filter((id) => ids.has(id)).length} / ${ids.size}`;
    });
    agreement.push(`| ${scenario.name} | ${runs.map((run) => run.serve.scenarios[s].count).join(' / ')} | ${overlap.join(' | ')} |`);
  });
  const summary = summarise(ours, peers);
  const section = [
    start,
    `## Search: the in-process index beside embedded peers (SQLite FTS5, MiniSearch), ${records.toLocaleString('en')} records`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:search-peers -- ${records} ${seconds}\` on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ` +
      `the search benchmark's synthetic records (seeded Zipf corpus) and query classes, ${seconds} s per cell, engines one after the other, each in its own processes. ` +
      `Load average (1, 5, 15 min) before / after ${engines.map((engine) => LABEL[engine]).join(' / after ')}: ${loadBefore} / ${runs.map((run) => run.loadAfter).join(' / ')}.`,
    '',
    "What and how: every engine answers the SearchIndex port's query (tools/bench/search/peers/): the viewer sees EV records, its organisation's and CU records shared with it " +
      '(visibility.ts keys), anonymous visitors EV only, `own` its own records; pages of 20 with a count capped at 1,000; deep pages asked for with the cursor of the page before ' +
      '(an engine that cannot seek by it counts the offset). Ours is the in-process memory and ranking without its PostgreSQL store (documents of a page from a Map; the product ' +
      'reads them from PostgreSQL, a round trip per page, see the in-process sections above). SQLite FTS5: a file database, contentless FTS5 (unicode61, prefix index), bm25 ' +
      '(name 4, description 2, rest 1), visibility as WHERE EXISTS over an access-key table, the empty query newest first on an index (keyset paging), ranked deep pages by OFFSET, ' +
      "typos by a trigram FTS5 table of name words; SQLite FTS5 with ours' ranking is the same database ranked by ours' rules instead of bm25 (every word in the name, " +
      'in the name or description when no more than 1,000 match, anywhere; each tier newest first by the row number, read only as far as the page needs). MiniSearch: BM25+ (name 3, description 2), every word required, visibility as its filter callback, typos as a fuzzy search of names ' +
      '(edit distance up to 20%), the empty query over a newest-first array the adapter keeps (MiniSearch has no ordered browse). ' +
      'Ours and the peers fall back to typos only when fewer than 10 records match, ours also adds "any word" then (not the peers; no query class here reaches it).',
    '',
    summary,
    '',
    'Build, from the records in memory; heap after build is above the level with the records generated (ours and MiniSearch hold the records by reference, so it leaves them out). ' +
      'Restart, in a fresh process: load what was persisted (index + documents file for the engines that keep documents in the heap; SQLite reopens its file, warm in the OS page cache) ' +
      'and answer the first search; heap and RSS after restart are above the fresh process, after a collection, with everything needed to answer (documents included).',
    '',
    '| engine | build s | heap after build MB | persist s | persisted MB (index + documents) | restart s (of it, documents) | heap after restart MB | RSS after restart MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...costs,
    '',
    'Latency per query class, ms. The engines answer synchronously, one query at a time on one thread: at 16 callers a latency runs from when its caller sent it (on its previous ' +
      "answer) to its answer, so it is mostly waiting in line behind the other 15 (about 16 × the 1-caller figure); throughput is what one core gives. Last column: each peer's p50 over ours.",
    '',
    `| query | callers | ${engines.map((engine) => `${SHORT[engine]} p50 / p95 / p99 | q/s`).join(' | ')} | p50 ÷ ours (${peers.map((run) => SHORT[run.engine]).join(' / ')}) |`,
    `| --- | ---: | ${engines.map(() => '---: | ---:').join(' | ')} | ---: |`,
    ...latency,
    '',
    "Agreement with ours: the count each gives (capped at 1,000: `1000+`), and how many of the page's ids (page 1, or the deep page) ours also returned. Every result of every page checked " +
      'was visible to its viewer (the benchmark stops on a leak). bm25 ranks by term frequency, ours by tiers (exact name, every word in the name, anywhere) then newest first, so ranked pages ' +
      'with many matches differ by design; the empty query and own records must agree.',
    '',
    `| query | count (${engines.map((engine) => SHORT[engine]).join(' / ')}) | ${peers.map((run) => `${SHORT[run.engine]}: ids also in ours`).join(' | ')} |`,
    `| --- | ---: | ${peers.map(() => '---:').join(' | ')} |`,
    ...agreement,
    end,
  ].join('\n');
  writeBenchmarkSection(name, section);
  console.log(section);
}

main();
