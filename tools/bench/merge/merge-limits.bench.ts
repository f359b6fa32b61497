/**
 * Merge limits benchmark (issue 21, item 5): the merge of two 11 KB CSVs with one repeated key
 * (4,000,000 rows joined) as a MERGE job of the product in embedded mode, once with the limits out
 * of reach (the product before them) and once with the defaults (MERGE_MAX_ROWS, MERGE_MAX_BYTES);
 * and a merge of wide rows that the bytes limit stops. Timed from merge-features to the job's end
 * on /api/tasks/job-content/; what the worker wrote before the stop comes from its log line. The
 * peer, in this process on the same files, is DuckDB with the merge engine's settings running the
 * same join as one COPY, without and with the LIMIT the engine adds.
 *
 * The product runs from its TypeScript sources (tools/scripts/run-ts.cjs apps/gateway/src/main.ts),
 * so dist/, which other suites may be running from, is left alone.
 *
 * Usage: npm run bench:merge-limits [-- --no-write]
 * Results replace the bench:merge-limits section of docs/benchmarks.md.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { eventually, freePort, startNode, waitForHttp } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';
import { loadAverage, writesResults } from '../relations/bench-run';
import { cpuMsOf, freshDatabase } from '../process-probe';

const SECTION = 'bench:merge-limits';
const DEFAULT_ROWS = 2_000_000;
const DEFAULT_BYTES = 256 * 1024 * 1024;
const OUT_OF_REACH = String(Number.MAX_SAFE_INTEGER - 1);

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Under the key 1: 2,000 rows whose value is `width` letters, or 2 and 3 letters alternately (11 KB). */
function keyedCsv(file: string, valueHeader: string, width = 0): string {
  const rows = Array.from({ length: 2000 }, (_, i) => `1,${width ? 'x'.repeat(width) : i < 1000 ? 'ab' : 'abc'}`);
  writeFileSync(file, [`key,${valueHeader}`, ...rows].join('\n') + '\n');
  return file;
}

interface ProductRun {
  ms: number;
  cpuMs: number;
  info: string;
  failed: boolean;
  stored: number | null;
  /** From merge-features until the catalogue has extracted the result record (the cost a stored result adds). */
  extractedMs: number | null;
  produced: { rows: number | null; bytes: number } | null;
}

/** Starts the product with `env`, uploads the pair, runs one MERGE job on key and reads what happened. */
async function productRun(label: string, files: Array<[string, string]>, env: Record<string, string>): Promise<ProductRun[]> {
  const databaseUrl = await freshDatabase(`dc_bench_merge_limits_${label}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dc-bench-merge-limits-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = startNode(
    'gateway',
    'tools/scripts/run-ts.cjs',
    { RUN_MODE: 'embedded', DATABASE_URL: databaseUrl, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: base, SERVE_WEB: 'false', LOG_LEVEL: 'warn', ...env },
    ['apps/gateway/src/main.ts'],
  );
  const db = new Client({ connectionString: databaseUrl });
  try {
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 300_000 });
    await db.connect();
    const auth = { authorization: `JWT ${await signIn(base, path.join(dataDir, 'mail'), 'benchlimits', 'bench limits password 1')}` };
    const call = async (url: string, body: unknown) => {
      const response = await fetch(`${base}${url}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };
    const upload = async (file: string) => {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(file)], { type: 'text/csv' }), path.basename(file));
      const response = await fetch(`${base}/api/records/`, { method: 'POST', headers: auth, body: form });
      if (response.status !== 201) throw new Error(`upload of ${file}: ${response.status} ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      const ready =
        'SELECT 1 FROM relations.records r JOIN relations.file_sketches s ON s.record_id = r.record_id AND s.file_id = ANY(r.file_ids) WHERE r.record_id = $1';
      await eventually(async () => {
        if ((await db.query(ready, [id])).rows.length !== 1) throw new Error('not mergeable yet');
      }, 120_000);
      return id;
    };
    const runs: ProductRun[] = [];
    for (const [left, right] of files) {
      const ids = [await upload(left), await upload(right)];
      // Let indexing settle, so the merge is measured alone.
      await eventually(async () => {
        const {
          rows: [state],
        } = await db.query(
          `SELECT (SELECT count(*) FROM catalogue.files WHERE extraction_status IN ('pending', 'running'))::int AS extracting, (SELECT count(*) FROM relations.related_pending)::int AS pending`,
        );
        if (state.extracting > 0 || state.pending > 0) throw new Error('background work');
      }, 120_000);
      const logged = app.lines.length;
      const pid = app.process.pid!;
      const cpuStart = cpuMsOf(pid);
      const begin = performance.now();
      const started = await call('/api/relations/merge-features/', {
        merge_relations: [{ record_left: ids[0], record_right: ids[1], header_left: 'key', header_right: 'key' }],
        merge_type: 'horizontal',
      });
      const jobId = started.newmerges[0].job_id as string;
      let job: { is_active: boolean; failed: boolean; info: string; content: { result_record_id: string | null } };
      for (;;) {
        // The registry learns of the job from job.requested: until then it answers 404.
        job = await call('/api/tasks/job-content/', { job: jobId }).catch(() => ({ is_active: true }));
        if (!job.is_active) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const ms = performance.now() - begin;
      const cpuMs = cpuMsOf(pid) - cpuStart;
      const stopLine = app.lines
        .slice(logged)
        .map((line) => {
          try {
            return JSON.parse(line);
          } catch {
            return null;
          }
        })
        .find((entry) => entry?.msg === 'merge result passed its limit; stopped');
      let stored: number | null = null;
      let extractedMs: number | null = null;
      if (job.content.result_record_id) {
        // The catalogue makes the record from merge.completed, then extracts it like an upload.
        const file = await eventually(async () => {
          const {
            rows: [row],
          } = await db.query("SELECT size FROM catalogue.files WHERE record_id = $1 AND extraction_status NOT IN ('pending', 'running')", [
            job.content.result_record_id,
          ]);
          if (!row) throw new Error('result record not extracted yet');
          return row;
        }, 600_000);
        extractedMs = performance.now() - begin;
        stored = Number(file.size);
      }
      runs.push({ ms, cpuMs, info: job.info, failed: job.failed, stored, extractedMs, produced: stopLine?.produced ?? null });
      console.log(`  ${label} ${path.basename(left)}: ${seconds(ms)}, ${job.info.slice(0, 100)}`);
    }
    return runs;
  } finally {
    await db.end().catch(() => undefined);
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface PeerRun {
  ms: number;
  rows: number | null;
  bytes: number;
}

/** DuckDB with the engine's settings, in this process: the join as one COPY, with a LIMIT and a byte watch when given. */
async function peer(dir: string, left: string, right: string, limit: { rows: number; bytes: number } | null): Promise<PeerRun> {
  const out = path.join(dir, 'peer.csv');
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: '512MB',
    threads: '2',
    temp_directory: `${out}.spill`,
    preserve_insertion_order: 'false',
  });
  const db = await instance.connect();
  const read = (file: string) => `read_csv('${file}', header = true, all_varchar = true, sample_size = 20480)`;
  const select = `SELECT l."key", l."a", r."b" FROM ${read(left)} l JOIN ${read(right)} r ON l."key" = r."key"`;
  const seen = { passed: false, bytes: 0 };
  const timer =
    limit &&
    setInterval(
      () =>
        void stat(out).then(
          (s) => {
            seen.bytes = s.size;
            if (s.size > limit.bytes && !seen.passed) {
              seen.passed = true;
              db.interrupt();
            }
          },
          () => undefined,
        ),
      25,
    );
  const begin = performance.now();
  let rows: number | null = null;
  try {
    const copy = limit
      ? `COPY (SELECT * FROM (${select}) LIMIT ${limit.rows + 1}) TO '${out}' (FORMAT csv, HEADER true)`
      : `COPY (${select}) TO '${out}' (FORMAT csv, HEADER true)`;
    rows = Number((await db.runAndReadAll(copy)).getRows()[0]?.[0] ?? 0);
  } catch (error) {
    if (!seen.passed) throw error;
  } finally {
    if (timer) clearInterval(timer);
  }
  const ms = performance.now() - begin;
  const bytes = rows === null ? seen.bytes : statSync(out).size;
  db.closeSync();
  instance.closeSync();
  rmSync(out, { force: true });
  rmSync(`${out}.spill`, { recursive: true, force: true });
  return { ms, rows, bytes };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dc-bench-merge-limits-files-'));
  const narrow: [string, string] = [keyedCsv(path.join(dir, 'narrow-left.csv'), 'a'), keyedCsv(path.join(dir, 'narrow-right.csv'), 'b')];
  const wide: [string, string] = [keyedCsv(path.join(dir, 'wide-left.csv'), 'a', 800), keyedCsv(path.join(dir, 'wide-right.csv'), 'b', 1)];
  const loadBefore = loadAverage();
  try {
    console.log("peer: DuckDB, the engine's settings, 3 runs each...");
    const peerRuns = async (files: [string, string], limit: { rows: number; bytes: number } | null) => {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await peer(dir, files[0], files[1], limit));
      return { ms: median(runs.map((r) => r.ms)), rows: runs[0].rows, bytes: median(runs.map((r) => r.bytes)) };
    };
    const peerNarrowAll = await peerRuns(narrow, null);
    const peerNarrowLimited = await peerRuns(narrow, { rows: DEFAULT_ROWS, bytes: DEFAULT_BYTES });
    const peerNarrowSmall = await peerRuns(narrow, { rows: 100_000, bytes: DEFAULT_BYTES });
    const peerWideLimited = await peerRuns(wide, { rows: DEFAULT_ROWS, bytes: DEFAULT_BYTES });

    console.log('product, limits out of reach (as before them)...');
    const [before] = await productRun('before', [narrow], {
      MERGE_MAX_ROWS: OUT_OF_REACH,
      MERGE_MAX_BYTES: OUT_OF_REACH,
      DERIVED_STORAGE_QUOTA_BYTES: OUT_OF_REACH,
    });
    console.log('product, default limits...');
    const [afterNarrow, afterWide] = await productRun('after', [narrow, wide], {});
    const loadAfter = loadAverage();
    const cpus = os.cpus();

    const produced = (run: ProductRun) =>
      run.produced
        ? `${run.produced.rows === null ? 'rows not counted (interrupted)' : `${run.produced.rows.toLocaleString('en')} rows`}, ${mb(run.produced.bytes)} on disk, then removed`
        : `${mb(run.stored ?? 0)} stored as a record`;
    const outcome = (run: ProductRun) => (run.failed ? `failed: "${run.info.split(' (')[0]} (…)"` : run.info);
    const section = [
      `<!-- ${SECTION}:start -->`,
      '## Merge limits: a 4,000,000-row merge of two 11 KB files, before and after MERGE_MAX_ROWS / MERGE_MAX_BYTES',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:merge-limits\` (\`tools/bench/merge/merge-limits.bench.ts\`) on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), Node ${process.version}: ` +
        'the product in embedded mode from its sources (one process, local PostgreSQL server), each merge started with merge-features and timed until /api/tasks/job-content/ shows the job ended; ' +
        `CPU time is the product process's. Load average (1, 5, 15 min) before / after: ${loadBefore} / ${loadAfter} (\`uptime\`); the machine is shared.`,
      '',
      `Data: two CSVs of 2,000 rows under one key: narrow (values of 2 and 3 letters, ${statSync(narrow[0]).size.toLocaleString('en')} bytes each: 4,000,000 rows of about 9 bytes joined, 36 MB); ` +
        `wide (800 letters on the left, ${mb(statSync(wide[0]).size)}: 4,000,000 rows of 805 bytes joined, 3.2 GB).`,
      '',
      '| | wall time | CPU time | outcome | what the worker wrote |',
      '|---|---:|---:|---|---|',
      `| product before (limits out of reach), narrow | ${seconds(before.ms)} (${seconds(before.extractedMs ?? 0)} until the record is extracted) | ${seconds(before.cpuMs)} | ${outcome(before)} | ${produced(before)} |`,
      `| product after (defaults: ${DEFAULT_ROWS.toLocaleString('en')} rows, 256 MiB), narrow | ${seconds(afterNarrow.ms)} | ${seconds(afterNarrow.cpuMs)} | ${outcome(afterNarrow)} | ${produced(afterNarrow)} |`,
      `| product after (defaults), wide | ${seconds(afterWide.ms)} | ${seconds(afterWide.cpuMs)} | ${outcome(afterWide)} | ${produced(afterWide)} |`,
      `| peer: DuckDB COPY of the narrow join, no LIMIT (median of 3) | ${seconds(peerNarrowAll.ms)} | | ${peerNarrowAll.rows?.toLocaleString('en')} rows | ${mb(peerNarrowAll.bytes)} |`,
      `| peer: the same COPY with LIMIT ${(DEFAULT_ROWS + 1).toLocaleString('en')} (median of 3) | ${seconds(peerNarrowLimited.ms)} | | ${peerNarrowLimited.rows?.toLocaleString('en')} rows | ${mb(peerNarrowLimited.bytes)} |`,
      `| peer: the same COPY with LIMIT 100,001 (median of 3) | ${seconds(peerNarrowSmall.ms)} | | ${peerNarrowSmall.rows?.toLocaleString('en')} rows | ${mb(peerNarrowSmall.bytes)} |`,
      `| peer: COPY of the wide join with that LIMIT, interrupted past 256 MiB (the engine's byte watch, median of 3) | ${seconds(peerWideLimited.ms)} | | ${peerWideLimited.rows === null ? 'interrupted' : `${peerWideLimited.rows.toLocaleString('en')} rows`} | ${mb(peerWideLimited.bytes)} when stopped |`,
      '',
      'DuckDB stops the join at the LIMIT (a streaming limit: the time falls with the limit, not after 4,000,000 rows), and a COPY interrupted past the bytes limit has written a little more than it, read every 25 ms.',
      `<!-- ${SECTION}:end -->`,
    ].join('\n');
    if (writesResults()) writeBenchmarkSection(SECTION, section);
    console.log(section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
