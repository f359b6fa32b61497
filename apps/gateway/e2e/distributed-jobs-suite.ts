import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { csvRows, DATASETS, eventually, freePort, innerJoinOf, type RunningProcess, type ServiceLauncher, sortedRows } from '@dc/testing';
import { type DistributedProduct, startDistributedProduct } from './distributed-product';
import { activateAndLogin, callApi, register } from './flows';

const KEYS = ['Country Code', 'Year'];

/**
 * Merge jobs in distributed mode: job.requested goes over Kafka to the merge workers' consumer
 * group, here two jobs workers (processes or containers, as `launch` starts them); one is killed with
 * SIGKILL in the middle of a job, and the job still finishes (on the other or on a restarted one)
 * with exactly one result record and one complete object in S3.
 */
export function distributedJobsTests(launch: ServiceLauncher): void {
  let product: DistributedProduct;
  let sql: Client;
  const workers: RunningProcess[] = [];
  /** Where each jobs process listens: the gateway routes /api/tasks to the first one's port. */
  const portOf = new Map<RunningProcess, number>();
  let auth: { authorization: string };
  let gdp: string;
  let population: string;
  const expected = innerJoinOf(path.join(DATASETS, 'csv/gdp.csv'), path.join(DATASETS, 'csv/population.csv'), KEYS);

  const api = (method: string, url: string, body?: object) => callApi(product.gatewayUrl, auth, method, url, body);
  const startWorker = async (name: string, port?: number) => {
    port ??= await freePort();
    const worker = await product.startService(name, 'jobs', port);
    workers.push(worker);
    portOf.set(worker, port);
    return worker;
  };
  const upload = async (file: string) => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(path.join(DATASETS, file))], { type: 'text/csv' }), path.basename(file));
    const created = await fetch(`${product.gatewayUrl}/api/records/`, { method: 'POST', headers: auth, body: form });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    // Mergeable once the relations service holds both the record (with its file) and the file's sketch.
    const ready =
      'SELECT 1 FROM relations.records r JOIN relations.file_sketches s ON s.record_id = r.record_id AND s.file_id = ANY(r.file_ids) WHERE r.record_id = $1';
    await eventually(async () => expect((await sql.query(ready, [id])).rows).toHaveLength(1), 120_000);
    return id as string;
  };
  const startMerge = async () => {
    const merge_relations = KEYS.map((h) => ({ record_left: gdp, record_right: population, header_left: h, header_right: h }));
    const started = await api('POST', '/api/relations/merge-features/', { merge_relations, merge_type: 'horizontal' });
    expect(started.body).toMatchObject({ newmerges: [{ job_id: expect.any(String) }] });
    return started.body.newmerges[0].job_id as string;
  };
  const finished = async (jobId: string, timeoutMs: number) => {
    let last: unknown;
    try {
      return await eventually(async () => {
        const job = await api('POST', '/api/tasks/job-content/', { job: jobId });
        last = job;
        expect(job.body?.is_active).toBe(false);
        return job.body;
      }, timeoutMs);
    } catch (error) {
      // What the job's answer and the workers said, so a failure under load can be read afterwards.
      const said = workers.map((w) => `${w.name}: ${[...w.lines.filter((l) => l.includes(jobId)), '…', ...w.lines.slice(-8)].join('\n  ')}`);
      throw new Error(`job ${jobId} not finished within ${timeoutMs} ms; last answer ${JSON.stringify(last)}\n${said.join('\n')}`, { cause: error });
    }
  };
  const mergedRows = async (recordId: string) => {
    const link = await api('GET', `/api/records/${recordId}/download/`);
    expect(link.status).toBe(200);
    const file = await fetch(new URL(link.body.url, product.gatewayUrl));
    expect(file.status).toBe(200);
    const [header, ...rows] = csvRows(await file.text());
    expect(header).toEqual(['Country Name', 'Country Code', 'Year', 'Value', 'Country Name (population.csv)', 'Value (population.csv)']);
    return sortedRows(rows);
  };

  beforeAll(async () => {
    product = await startDistributedProduct('dc_distributed_jobs', {}, launch);
    const first = product.processes.find((p) => p.name === 'jobs')!;
    workers.push(first);
    portOf.set(first, product.ports.jobs);
    await startWorker('jobs-2');
    sql = new Client({ connectionString: product.db.url });
    await sql.connect();
    await register(product.gatewayUrl, 'mira', 'merging-datasets-42');
    auth = { authorization: `JWT ${await eventually(() => activateAndLogin(product.gatewayUrl, product.mailDir, 'mira', 'merging-datasets-42'), 30_000)}` };
    gdp = await upload('csv/gdp.csv');
    population = await upload('csv/population.csv');
  }, 900_000);

  afterAll(async () => {
    await sql?.end();
    await Promise.all(workers.filter((w) => w.name !== 'jobs').map((w) => w.stop()));
    await product?.stop();
  }, 60_000);

  it('runs the merge on one of the two workers, and its record equals an inner join computed here', async () => {
    const jobId = await startMerge();
    const job = await finished(jobId, 120_000);
    expect(job).toMatchObject({ status: 'complete', failed: false, progress: { current: 5, total: 5 } });
    const ranOn = workers.filter((w) => w.lines.some((l) => l.includes(jobId) && l.includes('merge job done')));
    expect(ranOn).toHaveLength(1);
    await eventually(async () => expect((await api('GET', `/api/records/${job.content.result_record_id}/`)).status).toBe(200), 60_000);
    expect(await mergedRows(job.content.result_record_id)).toEqual(expected.rows);
  }, 300_000);

  it('finishes a job whose worker was killed with SIGKILL mid-way: one result record, one complete object', async () => {
    // Kill the worker that starts a merge; a worker may finish the merge between its start line and
    // the kill (a quick machine, a slow test), so start merges until a kill lands mid-way.
    let jobId = '';
    for (let attempt = 1; ; attempt++) {
      jobId = await startMerge();
      const started = jobId;
      const victim = await eventually(async () => {
        const worker = workers.find((w) => w.lines.some((l) => l.includes(started) && l.includes('merge job started')));
        expect(worker).toBeDefined();
        return worker!;
      }, 60_000);
      victim.kill('SIGKILL');
      await victim.exited;
      // Whether it was killed before it finished the job (asked before any live worker can take it over).
      const finishedBeforeKill = (await sql.query('SELECT 1 FROM jobs.finished_runs WHERE job_id = $1', [jobId])).rows.length > 0;
      workers.splice(workers.indexOf(victim), 1);
      // Restarted where it listened (the gateway's route to the registry may be that process).
      await startWorker(`jobs-restarted-${attempt}`, portOf.get(victim));
      if (!finishedBeforeKill) break;
      if (attempt === 5) throw new Error('in 5 attempts, every merge finished before its worker was killed');
    }

    // The group hands the unacknowledged job to a live worker once the dead one's session times out
    // (30 s), then the job runs again: about a minute on a quiet machine, over three under heavy load.
    const job = await finished(jobId, 300_000);
    expect(job).toMatchObject({ status: 'complete', failed: false });
    const resultRecords = async () => (await sql.query('SELECT count(*)::int AS n FROM catalogue.records WHERE provenance LIKE $1', [`%${jobId}%`])).rows[0].n;
    // The catalogue creates the result record from the job's event, a moment after the job reads complete.
    await eventually(async () => expect(await resultRecords()).toBe(1), 60_000);
    expect((await sql.query('SELECT count(*)::int AS n FROM jobs.finished_runs WHERE job_id = $1', [jobId])).rows[0].n).toBe(1);
    await eventually(async () => expect((await api('GET', `/api/records/${job.content.result_record_id}/`)).status).toBe(200), 60_000);
    expect(await resultRecords()).toBe(1);
    expect(await mergedRows(job.content.result_record_id)).toEqual(expected.rows);

    const s3 = new S3Client({
      endpoint: product.s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: product.s3.accessKeyId, secretAccessKey: product.s3.secretAccessKey },
    });
    try {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'data-catalogue', Prefix: `jobs/merges/${jobId}` }));
      expect((listed.Contents ?? []).map((o) => o.Key)).toEqual([`jobs/merges/${jobId}.csv`]);
    } finally {
      s3.destroy();
    }
  }, 600_000);
}
