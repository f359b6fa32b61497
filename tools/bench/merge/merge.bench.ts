/**
 * Merge benchmark (issue 11): a horizontal merge of two records of a million rows each on
 * person_id, run as a MERGE job by the real product in embedded mode (one process: gateway,
 * services, job worker), timed from merge-features to the job's completion in the registry, with
 * the process's peak memory. The peer, measured in the same run on the same files, is DuckDB with
 * one thread doing the same join into a CSV (in its own process, so that its memory is its own).
 *
 * Usage: npm run bench:merge -- [rows=1000000] [--no-write]
 * Results replace the bench:merge section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { openAsBlob, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, eventually, REPO_ROOT } from '@dc/testing';
import { signIn } from '../bench-account';
import { writeBenchmarkSection } from '../bench-support';
import { loadAverage, mb, positionalArgs, withPeopleBench, writesResults } from '../relations/bench-run';
import { cpuMsOf, memoryOf, resetPeak } from '../process-probe';
import type { MergePeerResult } from './duckdb-merge-peer';

const positional = positionalArgs();
const rows = Number(positional[0] ?? 1_000_000);
if (!Number.isInteger(rows) || rows < 1000) throw new Error('usage: bench:merge -- [rows >= 1000] [--no-write]');
const DB = 'dc_bench_merge';
const SECTION = 'bench:merge';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  buildServer();
  await withPeopleBench(rows, DB, 'dc-bench-merge-data-', async ({ files, base, pid, db, dataDir }) => {
    const auth = { authorization: `JWT ${await signIn(base, path.join(dataDir, 'mail'), 'benchmerge', 'bench merge password 1')}` };
    const call = async (url: string, body: unknown) => {
      const response = await fetch(`${base}${url}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };

    const ids: string[] = [];
    for (const file of [files.left, files.right]) {
      const form = new FormData();
      form.append('file', await openAsBlob(file), path.basename(file));
      const response = await fetch(`${base}/api/records/`, { method: 'POST', headers: auth, body: form });
      if (response.status !== 201) throw new Error(`upload of ${file} failed: ${response.status} ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      ids.push(id);
      console.log(`  ${path.basename(file)} uploaded`);
    }
    // merge-features reads the records' column sketches: wait until relations has both.
    await eventually(async () => {
      const {
        rows: [state],
      } = await db.query('SELECT count(*)::int AS n FROM relations.file_sketches WHERE record_id = ANY($1)', [ids]);
      if (state.n < 2) throw new Error('sketches not there yet');
    }, 30 * 60_000);
    // And let the background work of indexing settle (row-hash indexes, top_related), so the merge is measured alone.
    await eventually(async () => {
      const {
        rows: [state],
      } = await db.query(
        `SELECT (SELECT count(*) FROM catalogue.files WHERE extraction_status IN ('pending', 'running'))::int AS extracting,
                (SELECT count(*) FROM relations.related_pending)::int AS pending`,
      );
      if (state.extracting > 0 || state.pending > 0) throw new Error(`background work: ${JSON.stringify(state)}`);
    }, 30 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    const loadBefore = loadAverage();
    const peakReset = resetPeak(pid);
    const rssBefore = memoryOf(pid).rss;
    const cpuBefore = cpuMsOf(pid);
    const begin = performance.now();
    const started = await call('/api/relations/merge-features/', {
      merge_relations: [{ record_left: ids[0], record_right: ids[1], header_left: 'person_id', header_right: 'person_id' }],
      merge_type: 'horizontal',
    });
    const jobId = started.newmerges[0].job_id as string;
    let job: { is_active: boolean; failed: boolean; info: string; content: { result_record_id: string } };
    for (;;) {
      job = await call('/api/tasks/job-content/', { job: jobId });
      if (!job.is_active) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const productMs = performance.now() - begin;
    const productCpuMs = cpuMsOf(pid) - cpuBefore;
    const peak = memoryOf(pid).peak;
    if (job.failed) throw new Error(`merge job failed: ${job.info}`);
    const {
      rows: [file],
    } = await db.query('SELECT size FROM catalogue.files WHERE record_id = $1', [job.content.result_record_id]);
    console.log(`  product: ${seconds(productMs)}, ${job.info}`);

    console.log('DuckDB peer (1 thread)...');
    const out = path.join(dataDir, 'peer-merge.csv');
    const child = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, 'tools/scripts/run-ts.cjs'), path.join(__dirname, 'duckdb-merge-peer.ts'), files.left, files.right, out],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`DuckDB peer failed: ${child.stderr}`);
    const peer = JSON.parse(child.stdout.trim().split('\n').pop()!) as MergePeerResult;
    const loadAfter = loadAverage();
    const cpus = os.cpus();

    const section = [
      `<!-- ${SECTION}:start -->`,
      '## Merge: a horizontal merge of two records of a million rows (MERGE job)',
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:merge -- ${rows}\` (\`tools/bench/merge/\`) on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), Node ${process.version}: ` +
        'the real product in embedded mode (one process, local PostgreSQL server), the merge started with merge-features through the gateway and ' +
        `timed until /api/tasks/job-content/ shows the job complete. Load average (1, 5, 15 min) before / after: ${loadBefore} / ${loadAfter} (\`uptime\`); the machine is shared.`,
      '',
      `Data: \`people-data.ts\`, two CSVs of ${rows.toLocaleString('en')} rows (${mb(statSync(files.left).size)} and ${mb(statSync(files.right).size)}), joined on person_id (${files.shared.toLocaleString('en')} persons in both).`,
      '',
      '| | wall time | CPU time | rows out | peak memory |',
      '|---|---:|---:|---:|---:|',
      `| product: MERGE job (download both files from object storage, DuckDB join with 2 threads and a 512 MB limit, CSV streamed back into object storage, events) | ${seconds(productMs)} | ${seconds(productCpuMs)} | ${job.info} | ${peakReset ? `${mb(rssBefore)} → ${mb(peak)} (whole product process)` : 'not measurable'} |`,
      `| peer: DuckDB 1 thread, same join into a CSV, own process | ${seconds(peer.ms)} | ${seconds(peer.cpuMs)} | ${peer.rows.toLocaleString('en')} | ${peer.peakRssMb.toFixed(0)} MB |`,
      '',
      `Product / peer wall time: ${(productMs / peer.ms).toFixed(2)}x (target at most 1.5x); result file ${mb(Number(file?.size ?? 0))}.`,
      `<!-- ${SECTION}:end -->`,
    ].join('\n');
    if (writesResults()) writeBenchmarkSection(SECTION, section);
    console.log(section);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
