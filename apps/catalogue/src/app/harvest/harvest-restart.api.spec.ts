import { randomUUID } from 'node:crypto';
import { createTestDatabase, describeInfra, eventually, type TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp } from '../../testing/catalogue-test-app';

const DATASETS = 300;
const org = randomUUID();
const importer = caller('importer', org, [1, 2, 3]);

/** A catalogue of many small datasets, so that the import is still running when the catalogue stops. */
const bigCatalogue = () =>
  [
    '@prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .',
    ...Array.from(
      { length: DATASETS },
      (_, i) => `<https://big.example.org/dataset/${i}> a dcat:Dataset ; dct:title "Station ${i}"@en ; dcat:keyword "station", "n${i}" .`,
    ),
  ].join('\n');

/**
 * Work that outlives a request: an import written down before it started goes on after the
 * catalogue process stops mid-way and a new one starts on the same database, from where it stopped,
 * creating each dataset's record once.
 */
describeInfra('DCAT import across a restart of the catalogue (real PostgreSQL)', true, () => {
  jest.setTimeout(180_000);
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_harvest_restart');
    catalogue = await CatalogueTestApp.start(db.url);
    await catalogue.feedDirectory([importer], { [org]: 'Acme' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  const progress = async (jobId: string) =>
    (await catalogue.sql<{ done: number; status: string }>('SELECT done, status FROM catalogue.harvest_jobs WHERE job_id = $1', [jobId]))[0];

  it('goes on after a restart from the dataset it stopped at, and makes each record once', async () => {
    const started = await catalogue
      .http()
      .post('/api/harvests/')
      .set(catalogue.auth(importer))
      .attach('file', Buffer.from(bigCatalogue()), { filename: 'stations.ttl' })
      .expect(202);
    const jobId = started.body.job_id as string;
    await eventually(async () => expect((await progress(jobId)).done).toBeGreaterThan(0));

    // The process stops mid-import; a new one starts on the same database and data.
    const dataDir = catalogue.dataDir;
    await catalogue.stop({ keepData: true });
    catalogue = await CatalogueTestApp.start(db.url, { dataDir });
    const stoppedAt = await progress(jobId);
    expect(stoppedAt.status).toBe('running');
    expect(stoppedAt.done).toBeLessThan(DATASETS);

    const done = await eventually(async () => {
      const completed = (await catalogue.events(jobId)).find((e) => e.type === 'job.completed');
      if (!completed) throw new Error('the import is still running');
      return completed.payload as { status: string; harvest: { total: number; created: number; updated: number; failed: number } };
    }, 120_000);
    expect(done).toMatchObject({ status: 'done', harvest: { total: DATASETS, created: DATASETS, updated: 0, failed: 0 } });
    const [counts] = await catalogue.sql<{ records: number; mapped: number }>(
      `SELECT (SELECT count(*) FROM catalogue.records WHERE organisation_id = $1)::int AS records,
              (SELECT count(*) FROM catalogue.harvested_datasets WHERE organisation_id = $1)::int AS mapped`,
      [org],
    );
    expect(counts).toEqual({ records: DATASETS, mapped: DATASETS });
    // Progress was reported for every dataset, once each, across both processes.
    const progressed = (await catalogue.events(jobId)).filter((e) => e.type === 'job.progressed').map((e) => (e.payload as { current: number }).current);
    expect(progressed).toEqual(Array.from({ length: DATASETS }, (_, i) => i + 1));
  });
});
