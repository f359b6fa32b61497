/**
 * Relations benchmark (issue 10): the five relations between two records of a million rows each,
 * link-rows, and the merge scan over ten records, each timed through the gateway of the real
 * product in embedded mode (one process), with the process's memory. The peer, measured in the
 * same run, is DuckDB computing the same column overlaps and row matches exactly on the same CSVs
 * (in its own process, so that its memory is its own).
 *
 * Usage: npm run bench:relations -- [rows=1000000] [repeats=5] [--no-write]
 * Generated files are kept under the system's temporary directory and reused by the next run.
 * Results replace the bench:relations section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { openAsBlob, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, eventually, REPO_ROOT } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';
import { loadAverage, mb, positionalArgs, withPeopleBench, writesResults } from './bench-run';
import { cpuMsOf, memoryOf, resetPeak } from '../process-probe';
import type { PeerResult } from './duckdb-peer';
import { peopleFiles } from './people-data';

const positional = positionalArgs();
const rows = Number(positional[0] ?? 1_000_000);
const repeats = Number(positional[1] ?? 5);
if (!Number.isInteger(rows) || rows < 1000 || !Number.isInteger(repeats) || repeats < 1)
  throw new Error('usage: bench:relations -- [rows >= 1000] [repeats >= 1] [--no-write]');
const DB = 'dc_bench_relations';
const USERNAME = 'benchrelations';
const PASSWORD = 'bench relations password 1';
const SECTION = 'bench:relations';

const seconds = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);

interface Timed<T> {
  first: number;
  rest: number[];
  /** The product's CPU time for the first call, and per call for the others. */
  firstCpu: number;
  restCpu: number;
  body: T;
  rssBefore: number;
  peak: number;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function main(): Promise<void> {
  buildServer();
  const started = Date.now();
  await withPeopleBench(rows, DB, 'dc-bench-relations-data-', async ({ files, base, pid, app, db, dataDir }) => {
    const loadBefore = loadAverage();

    const token = await signIn(base, path.join(dataDir, 'mail'), USERNAME, PASSWORD);
    const auth = { authorization: `JWT ${token}` };
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };

    // Index the ten files as a user does (one record each), and wait for extraction.
    const uploads: Array<{ file: string; id: string; fileId: string; uploadMs: number; extractedMs: number }> = [];
    for (const file of [files.left, files.right, ...files.others]) {
      const form = new FormData();
      form.append('file', await openAsBlob(file), path.basename(file));
      const begin = performance.now();
      const response = await fetch(`${base}/api/records/`, { method: 'POST', headers: auth, body: form });
      if (response.status !== 201) throw new Error(`upload of ${file} failed: ${response.status} ${await response.text()}`);
      const uploadMs = performance.now() - begin;
      const { id } = (await response.json()) as { id: string };
      const record = await eventually(async () => {
        const detail = await call('GET', `/api/records/${id}/`);
        if (detail.extraction_status !== 'done') throw new Error(`${path.basename(file)} not extracted yet`);
        return detail;
      }, 30 * 60_000);
      uploads.push({ file, id, fileId: record.FILES[0].id, uploadMs, extractedMs: performance.now() - begin });
      console.log(`  ${path.basename(file)}: uploaded in ${seconds(uploadMs)}, extracted after ${seconds(performance.now() - begin)}`);
    }
    const [left, right] = uploads;
    // Relations works in the background: row-hash indexes of the stored files, then everyone's top_related.
    await eventually(async () => {
      const {
        rows: [state],
      } = await db.query(
        `SELECT (SELECT count(*) FROM relations.row_indexes WHERE status = 'ready' AND file_id = ANY($1))::int AS indexed,
                (SELECT count(*) FROM relations.related_pending)::int AS pending`,
        [uploads.map((u) => u.fileId)],
      );
      if (state.indexed < uploads.length || state.pending > 0) throw new Error(`relations not ready: ${JSON.stringify(state)}`);
    }, 30 * 60_000);
    const built = new Map<string, number>();
    for (const line of app.lines) {
      if (!line.includes('"row index built"')) continue;
      const entry = JSON.parse(line) as { fileId: string; ms: number };
      built.set(entry.fileId, entry.ms);
    }
    console.log(`relations ready after ${seconds(Date.now() - started)}`);

    const peakReset = resetPeak(pid);
    const timed = async <T>(run: () => Promise<T>): Promise<Timed<T>> => {
      resetPeak(pid);
      const rssBefore = memoryOf(pid).rss;
      let cpu = cpuMsOf(pid);
      let begin = performance.now();
      const body = await run();
      const first = performance.now() - begin;
      const firstCpu = cpuMsOf(pid) - cpu;
      cpu = cpuMsOf(pid);
      const rest: number[] = [];
      for (let i = 1; i < repeats; i++) {
        begin = performance.now();
        await run();
        rest.push(performance.now() - begin);
      }
      const restCpu = rest.length ? (cpuMsOf(pid) - cpu) / rest.length : NaN;
      return { first, rest, firstCpu, restCpu, body, rssBefore, peak: memoryOf(pid).peak };
    };
    const pair = `record1=${left.id}&record2=${right.id}`;
    const measured: Array<[string, Timed<Record<string, unknown>>]> = [];
    for (const [name, url] of [
      ['semantics', `/api/relations/semantics/?${pair}`],
      ['structures', `/api/relations/structures/?${pair}`],
      ['statistics', `/api/relations/statistics/?${pair}`],
      ['joining', `/api/relations/joining/?${pair}`],
      ['linkability', `/api/relations/linkability/?${pair}`],
      ['link-rows (limit 100)', `/api/relations/link-rows/?${pair}&limit=100`],
    ] as const) {
      measured.push([name, await timed(() => call('GET', url))]);
      console.log(`  ${name}: first ${seconds(measured.at(-1)![1].first)}, then ${measured.at(-1)![1].rest.map(seconds).join(', ')}`);
    }
    const scan = await timed(() => call('POST', '/api/relations/get-merge-relations/', { records: uploads.map((u) => u.id) }));
    console.log(`  merge scan: first ${seconds(scan.first)}, then ${scan.rest.map(seconds).join(', ')}`);
    const detail = await timed(() => call('GET', `/api/records/${left.id}/`));

    console.log('DuckDB peer...');
    const child = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, 'tools/scripts/run-ts.cjs'), path.join(__dirname, 'duckdb-peer.ts'), files.left, files.right],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
    if (child.status !== 0) throw new Error(`DuckDB peer failed: ${child.stderr}`);
    const peer = JSON.parse(child.stdout.trim().split('\n').pop()!) as PeerResult;
    const loadAfter = loadAverage();

    const section = report({ files, uploads, built, measured, scan, detail, peer, peakReset, loadBefore, loadAfter });
    if (writesResults()) writeBenchmarkSection(SECTION, section);
    console.log(section);
  });
}

interface Report {
  files: Awaited<ReturnType<typeof peopleFiles>>;
  uploads: Array<{ file: string; id: string; fileId: string; uploadMs: number; extractedMs: number }>;
  built: Map<string, number>;
  measured: Array<[string, Timed<Record<string, unknown>>]>;
  scan: Timed<Record<string, unknown>>;
  detail: Timed<Record<string, unknown>>;
  peer: PeerResult;
  peakReset: boolean;
  loadBefore: string;
  loadAfter: string;
}

type MatchingHeader = { header_left: string; header_right: string; containment_left: number; containment_right: number; score: number };
type Matches = Array<{ column_left: string; total_matches: number }>;

function report({ files, uploads, built, measured, scan, detail, peer, peakReset, loadBefore, loadAfter }: Report): string {
  const byName = new Map(measured);
  const answer = (name: string) => byName.get(name)!.body as Record<string, unknown>;
  const joining = answer('joining') as { join_score: number; matching_headers: MatchingHeader[] };
  const link = answer('linkability') as { link_score: number; estimated: boolean; matches: Matches; tot_rows: { left: number; right: number } };
  const summaries: Record<string, string> = {
    semantics: `sem_score ${answer('semantics').sem_score}, ${answer('semantics').total_sim_words} similar word pairs`,
    structures: `struct_score ${answer('structures').struct_score}`,
    statistics: `stats_score ${answer('statistics').stats_score}, ${(answer('statistics').stats_mtx as unknown[]).length} column pairs`,
    joining: `join_score ${joining.join_score}, ${joining.matching_headers.length} column pairs`,
    linkability: `link_score ${link.link_score}${link.estimated ? ' (estimated)' : ''}, ${link.matches.length} linked columns, first 10 row pairs`,
    'link-rows (limit 100)': `${(answer('link-rows (limit 100)').results as unknown[]).length} row pairs`,
  };
  const memory = (t: Timed<unknown>) => (peakReset ? `${mb(t.rssBefore)} → ${mb(t.peak)}` : `${mb(t.rssBefore)} (peak not measurable)`);
  const line = (name: string, t: Timed<unknown>, summary: string) =>
    `| ${name} | ${summary} | ${seconds(t.first)} (${seconds(t.firstCpu)}) | ${seconds(median(t.rest))} | ${seconds(Math.max(t.first, ...t.rest))} | ${seconds(t.restCpu)} | ${memory(t)} |`;
  const sizes = `${mb(statSync(files.left).size)} and ${mb(statSync(files.right).size)}`;
  const [leftUpload, rightUpload] = uploads;
  const scanBody = scan.body as {
    merge_relations: unknown[];
    linking_columns: Array<{ record_left_name: string; record_right_name: string; estimated: boolean }>;
  };
  const linkedPairs = scanBody.linking_columns.map((l) => `${l.record_left_name} with ${l.record_right_name}${l.estimated ? ' (estimated)' : ''}`).join(', ');
  const cpus = os.cpus();

  const overlap = peer.columns.map((c) => {
    const ours = joining.matching_headers.find((m) => m.header_left === c.column && m.header_right === c.column);
    const matched = link.matches.find((m) => m.column_left === c.column);
    return `| ${c.column} | ${ours ? `${ours.containment_left} / ${ours.containment_right}` : 'not listed'} | ${(c.distinctShared / c.distinctLeft).toFixed(4)} / ${(c.distinctShared / c.distinctRight).toFixed(4)} | ${matched ? matched.total_matches : 'not linked'} | ${c.leftRowsMatched} |`;
  });

  return [
    `<!-- ${SECTION}:start -->`,
    '## Relations: two records of a million rows, and a merge scan over ten records',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:relations -- ${files.rows} ${repeats}\` (\`tools/bench/relations/\`) on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ` +
      `Node ${process.version}: the real product in embedded mode (one process, local PostgreSQL server), every call through the gateway with a real account's token. ` +
      `Load average (1, 5, 15 min) before / after the measurements: ${loadBefore} / ${loadAfter}; the machine is shared, so every figure includes waiting for a core.`,
    '',
    `Data (seeded, \`people-data.ts\`): two CSVs of ${files.rows.toLocaleString('en')} rows (${sizes}): \`person_id, first_name, last_name, birth_year, postcode\` and an income or`,
    `visits column; ${files.shared.toLocaleString('en')} persons (70 %) are in both, in another order, 3 % of their surnames with a typo on the right. Eight smaller tables`,
    '(postcodes, first names, surnames, birth years, a 100,000-row sample of people, incomes, clinic visits, clinics) share some of these columns; all ten are',
    'uploaded as records of one account before anything is measured.',
    '',
    '### One-off work when a file is indexed (background, not per call)',
    '',
    '| file | upload (HTTP) | extraction done after | row-hash index built in |',
    '|---|---:|---:|---:|',
    ...[leftUpload, rightUpload].map(
      (u) =>
        `| ${path.basename(u.file)} | ${seconds(u.uploadMs)} | ${seconds(u.extractedMs)} | ${built.has(u.fileId) ? seconds(built.get(u.fileId)!) : 'n/a'} |`,
    ),
    '',
    'The row-hash index is one parse of the stored file (`extractMetadata` with a spooling observer, one uint32 per row and linkable column in',
    'object storage). Before it existed, linkability, link-rows and the merge scan parsed both stored files again on every call: that cost is',
    'about the "built in" figure per file and per call.',
    '',
    `### Per call, through the gateway (first call, then the median and slowest of ${repeats} calls)`,
    '',
    'Wall time as the client saw it; in brackets and in the CPU column, the CPU time (user + system) the product process spent, which the',
    "machine's other jobs do not stretch. PostgreSQL runs in its own processes and is not in these figures.",
    '',
    '| call | answer | first wall (CPU) | median wall | slowest wall | CPU per call after the first | product RSS before → peak during the calls |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...measured.map(([name, t]) => line(name, t, summaries[name])),
    line('get-merge-relations (10 records)', scan, `${scanBody.merge_relations.length} candidate field pairs; rows linked for ${linkedPairs}`),
    line('GET /api/records/{id} (with top_related)', detail, `${(detail.body.top_related as unknown[]).length} related records`),
    '',
    'The first linkability call reads the two indexes from object storage (about 4 MB per linked column and file); later calls find the columns',
    'in memory. Semantics, structures, statistics and joining read the column sketches only. top_related is kept per record in the background',
    'and read with the record.',
    '',
    '### Peer: DuckDB, the same overlaps computed exactly, in the same run',
    '',
    `DuckDB (\`@duckdb/node-api\`, in-memory database, its own process; wall time, CPU time of its threads in brackets): loading both CSVs into`,
    `tables ${seconds(peer.loadMs)} (${seconds(peer.loadCpuMs)}); distinct values per side and shared, for the five shared columns (what joining estimates`,
    `from sketches) ${seconds(peer.joiningMs)} (${seconds(peer.joiningCpuMs)}); rows of the left table whose value occurs on the right, per column, and the`,
    `join on person_id (what linkability counts) ${seconds(peer.linkMs)} (${seconds(peer.linkCpuMs)}). Peak RSS ${peer.peakRssMb.toFixed(0)} MB.`,
    '',
    '| column | joining: containment left / right (product, from sketches) | exact (DuckDB) | linkability: left rows matched (product) | exact (DuckDB) |',
    '|---|---:|---:|---:|---:|',
    ...overlap,
    '',
    `Rows linked by the product with a probability of at least 0.5: link_score ${link.link_score} × ${link.tot_rows.left.toLocaleString('en')} left rows; rows of the left table joined on person_id by DuckDB: ${peer.joinedRows.toLocaleString('en')}.`,
    `<!-- ${SECTION}:end -->`,
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
