import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CatalogueModule } from '@dc/service-catalogue';
import { JobsModule } from '@dc/service-jobs';
import { RelationsModule } from '@dc/service-relations';
import {
  createTestDatabase,
  csvRows,
  DATASETS,
  describeInfra,
  directoryEvents,
  DocumentedAnswers,
  eventually,
  innerJoinOf,
  ServiceTestApp,
  sortedRows,
  testCaller,
  type TestCaller as Person,
  type TestDatabase,
  withBytesBody,
} from '@dc/testing';

/**
 * Merges as background jobs, through the services embedded mode composes: the catalogue stores and
 * extracts uploads, relations starts the job (merge-features) for what the caller may download, a
 * merge worker of the jobs service runs it (DuckDB), the registry follows it on /api/tasks, and the
 * catalogue indexes the merged CSV as the owner's new record.
 */
describeInfra('merge jobs: catalogue, relations and jobs together (real PostgreSQL, in-process events)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  const owner = testCaller('owner', randomUUID(), [1, 2, 3]);
  const outsider = testCaller('outsider', randomUUID(), [1, 2, 3]);
  let gdp: string;
  let population: string;

  const as = (who: Person) => service.auth(who);
  const http = () => service.http();
  /** The JSON calls of relations and jobs, their answers also checked against docs/openapi.json (asserted last). */
  const documented = new DocumentedAnswers();
  const post = (url: string, body: object, who: Person | null) =>
    documented.checking('post', url, who ? http().post(url).set(as(who)).send(body) : http().post(url).send(body));
  const upload = async (who: Person, file: string): Promise<string> => {
    const response = await http().post('/api/records/').set(as(who)).attach('file', path.join(DATASETS, file));
    expect(response.status).toBe(201);
    return response.body.id;
  };
  const sketched = (recordId: string) =>
    eventually(async () => expect(await service.sql('SELECT 1 FROM relations.file_sketches WHERE record_id = $1', [recordId])).toHaveLength(1), 60_000);
  const finished = (who: Person, jobId: string) =>
    eventually(async () => {
      const job = (await post('/api/tasks/job-content/', { job: jobId }, who)).body;
      expect(job.is_active).toBe(false);
      return job;
    }, 60_000);
  const download = async (who: Person, recordId: string) => {
    // A merge's record is made from merge.completed a moment after its job is done.
    const link = await eventually(async () => {
      const answer = await http().get(`/api/records/${recordId}/download/`).set(as(who));
      expect(answer.status).toBe(200);
      return answer;
    }, 60_000);
    const url = new URL(link.body.url, 'http://localhost');
    const file = await withBytesBody(http().get(url.pathname + url.search));
    expect(file.status).toBe(200);
    return (file.body as Buffer).toString('utf8');
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_merge_jobs');
    service = await ServiceTestApp.start({
      service: 'gateway',
      name: 'merge-jobs',
      modules: [CatalogueModule, RelationsModule, JobsModule],
      databaseUrl: db.url,
    });
    await service.publish(
      ...directoryEvents([owner, outsider], { [owner.organisationId]: `${owner.username} org`, [outsider.organisationId]: `${outsider.username} org` }),
    );
    gdp = await upload(owner, 'csv/gdp.csv');
    population = await upload(owner, 'csv/population.csv');
    await sketched(gdp);
    await sketched(population);
  }, 120_000);
  jest.setTimeout(120_000);

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it('merges gdp and population horizontally on Country Code and Year into a new private record equal to an inner join computed here', async () => {
    const scan = await post('/api/relations/get-merge-relations/', { records: [gdp, population] }, owner);
    expect(scan.status).toBe(200);
    const chosen = (scan.body.merge_relations as Array<{ header_left: string; header_right: string }>).filter(
      (c) => ['Country Code', 'Year'].includes(c.header_left) && c.header_left === c.header_right,
    );
    expect(chosen.map((c) => c.header_left).sort()).toEqual(['Country Code', 'Year']);

    const started = await post('/api/relations/merge-features/', { merge_relations: chosen, merge_type: 'horizontal' }, owner);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ nodata: false, nottabular: false, nomatches: false, messages: ['New merge job was successfully initiated.'] });
    expect(started.body.newmerges).toEqual([
      {
        job_id: expect.any(String),
        type: 'MERGE',
        record_left_id: gdp,
        record_left_name: 'gdp.csv',
        record_right_id: population,
        record_right_name: 'population.csv',
      },
    ]);
    const jobId = started.body.newmerges[0].job_id;

    await eventually(async () => {
      const listed = (await post('/api/tasks/jobs-list/', {}, owner)).body.results;
      expect(listed.map((j: { job_id: string }) => j.job_id)).toContain(jobId);
    });
    const job = await finished(owner, jobId);
    expect(job).toMatchObject({
      type: 'MERGE',
      status: 'complete',
      failed: false,
      progress: { current: 5, total: 5 },
      content: { record_left_id: gdp, record_right_id: population },
    });
    const resultId = job.content.result_record_id;
    expect(resultId).toEqual(expect.any(String));

    // The result: the owner's new private record, Request access, its provenance naming its sources, extracted like an upload.
    const record = await eventually(async () => {
      const response = await http().get(`/api/records/${resultId}/`).set(as(owner));
      expect(response.status).toBe(200);
      expect(response.body.FILES[0].META?.FILE?.HEADERS).toBeDefined();
      return response.body;
    }, 60_000);
    expect(record).toMatchObject({ is_owner: true, access: 'RE', origin: 'merge' });
    expect(record.visibilitymodel_set?.[0]?.visibility_selection ?? 'PR').toBe('PR');
    expect(record.provenance).toContain(gdp);
    expect(record.provenance).toContain(population);

    // Its rows equal an inner join of the two files on Country Code and Year, computed independently.
    const expected = innerJoinOf(path.join(DATASETS, 'csv/gdp.csv'), path.join(DATASETS, 'csv/population.csv'), ['Country Code', 'Year']);
    expect(expected.rows.length).toBeGreaterThan(1000);
    const [mergedHeader, ...mergedRows] = csvRows(await download(owner, resultId));
    expect(mergedHeader).toEqual(['Country Name', 'Country Code', 'Year', 'Value', 'Country Name (population.csv)', 'Value (population.csv)']);
    expect(sortedRows(mergedRows)).toEqual(expected.rows);

    // Nobody else sees the job or its result.
    expect((await post('/api/tasks/job-content/', { job: jobId }, outsider)).status).toBe(404);
    expect((await post('/api/tasks/job-delete/', { job: jobId }, outsider)).status).toBe(404);
    expect((await http().get(`/api/records/${resultId}/`).set(as(outsider))).status).toBe(404);
    // One result record for the job.
    expect((await service.sql("SELECT count(*)::int AS n FROM catalogue.records WHERE origin = 'merge'"))[0].n).toBe(1);
  });

  it('stacks the paired columns for a vertical merge, exporting only those', async () => {
    const pairs = ['Country Code', 'Year'].map((h) => ({ record_left: gdp, record_right: population, header_left: h, header_right: h }));
    const started = await post('/api/relations/merge-features', { merge_relations: pairs, merge_type: 'vertical' }, owner);
    const job = await finished(owner, started.body.newmerges[0].job_id);
    const [header, ...rows] = csvRows(await download(owner, job.content.result_record_id));
    expect(header).toEqual(['Country Code', 'Year']);
    const lines = (file: string) => csvRows(readFileSync(path.join(DATASETS, file), 'utf8')).length - 1;
    expect(rows.length).toBe(lines('csv/gdp.csv') + lines('csv/population.csv'));
  });

  it('merges nothing the caller may not download, says when values never match, and refuses data that is not tabular', async () => {
    const pairs = [{ record_left: gdp, record_right: population, header_left: 'Year', header_right: 'Year' }];
    const refused = await post('/api/relations/merge-features/', { merge_relations: pairs, merge_type: 'horizontal' }, outsider);
    expect(refused.body).toEqual({
      nodata: true,
      nottabular: false,
      nomatches: false,
      newmerges: [],
      messages: ['Some merges could not be completed. You do not have access to those data.'],
    });
    expect((await post('/api/tasks/jobs-list/', {}, outsider)).body.count).toBe(0);

    // Country names never equal years: the job completes with the spec's message and makes no record.
    const before = (await service.sql("SELECT count(*)::int AS n FROM catalogue.records WHERE origin = 'merge'"))[0].n;
    const mismatched = await post(
      '/api/relations/merge-features/',
      { merge_relations: [{ ...pairs[0], header_left: 'Country Name' }], merge_type: 'horizontal' },
      owner,
    );
    const job = await finished(owner, mismatched.body.newmerges[0].job_id);
    expect(job).toMatchObject({ info: 'Some merges had no matching values for the selected fields.', failed: true, content: { result_record_id: null } });
    expect((await service.sql("SELECT count(*)::int AS n FROM catalogue.records WHERE origin = 'merge'"))[0].n).toBe(before);

    const text = await upload(owner, 'txt/' + readdirSync(path.join(DATASETS, 'txt'))[0]);
    await eventually(async () => expect(await service.sql('SELECT 1 FROM relations.records WHERE record_id = $1', [text])).toHaveLength(1), 60_000);
    const notTabular = await post(
      '/api/relations/merge-features/',
      { merge_relations: [{ record_left: gdp, record_right: text, header_left: 'Year', header_right: 'Year' }], merge_type: 'horizontal' },
      owner,
    );
    expect(notTabular.body).toMatchObject({
      nottabular: true,
      newmerges: [],
      messages: ['Some data cannot be merged. Please try tabular data like CSVs, XLS, Data Tables instead.'],
    });

    expect((await post('/api/relations/merge-features/', { merge_relations: pairs, merge_type: 'diagonal' }, owner)).body).toEqual({
      merge_type: ['Choose horizontal or vertical.'],
    });
    expect((await post('/api/relations/merge-features/', { merge_relations: pairs, merge_type: 'horizontal' }, null)).status).toBe(401);
  });

  it('answered every call above as docs/openapi.json documents it', () => {
    expect(documented.mismatches).toEqual([]);
  });
});
