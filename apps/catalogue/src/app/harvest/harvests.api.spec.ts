import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type EventEnvelope } from '@dc/contracts';
import { createTestDatabase, describeInfra, eventually, type TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp } from '../../testing/catalogue-test-app';
import { datasetOfFields } from './dataset-record';
import { readDcat, type HarvestedDataset } from './dcat-reader';
import { HarvestRunner } from './harvest-runner';

const org = randomUUID();
const importer = caller('importer', org, [1, 2, 3]);
const otherOrg = randomUUID();
const outsider = caller('outsider', otherOrg, [1, 2, 3]);
const fixture = (name: string) => readFileSync(join(__dirname, 'testing', name), 'utf8');
const TURTLE = fixture('regional-catalogue.ttl');
const JSONLD = fixture('harbour-catalogue.jsonld');
const MAX_BYTES = 64 * 1024;

/** Name, description, keywords and distributions: what an import must keep of each dataset. */
const kept = (d: HarvestedDataset) => ({ title: d.title, description: d.description, keywords: d.keywords, distributions: d.distributions });
const byTitle = <T extends { title: string }>(list: T[]) => [...list].sort((a, b) => a.title.localeCompare(b.title));

describeInfra('DCAT import API (real PostgreSQL, a real HTTP server on loopback)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let server: Server;
  let base: string;
  const served: Record<string, { type: string; body: string }> = {};

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_harvests');
    // The test's catalogue server is on loopback: the operator allows 127.0.0.1 only, as docs/security.md says.
    catalogue = await CatalogueTestApp.start(db.url, { env: { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1', HARVEST_MAX_BYTES: String(MAX_BYTES) } });
    await catalogue.feedDirectory([importer, outsider], { [org]: 'Acme', [otherOrg]: 'Other' });
    server = createServer((req, res) => {
      const page = served[req.url ?? ''];
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': page.type }).end(page.body);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await catalogue?.close();
    await db?.drop();
  });

  const upload = (who: typeof importer, name: string, text: string, type = 'application/octet-stream') =>
    catalogue.http().post('/api/harvests/').set(catalogue.auth(who)).attach('file', Buffer.from(text), { filename: name, contentType: type });

  /** The job's job.completed, once the import ended (the outbox is what the jobs service hears). */
  const completion = (jobId: string) =>
    eventually(async () => {
      const done = (await catalogue.events(jobId)).find((e) => e.type === 'job.completed');
      if (!done) throw new Error('the import is still running');
      return done as EventEnvelope<{
        status: string;
        info: string;
        harvest: { total: number; created: number; updated: number; failed: number; failures: unknown[] };
      }>;
    });

  /** The organisation's imported records, read back through the API as its members see them. */
  const importedRecords = async (organisationId: string, who: typeof importer) => {
    const rows = await catalogue.sql<{ record_id: string }>(
      'SELECT h.record_id FROM catalogue.harvested_datasets h JOIN catalogue.records r ON r.id = h.record_id WHERE h.organisation_id = $1',
      [organisationId],
    );
    const views = [];
    for (const { record_id } of rows) {
      const response = await catalogue.http().get(`/api/records/${record_id}`).set(catalogue.auth(who)).expect(200);
      views.push(
        response.body as {
          name: string;
          description: string;
          record_fields: Array<{ label: string; value: string }>;
          user: string;
          origin: string;
          provenance: string;
          organisation: { id: string };
        },
      );
    }
    return views;
  };
  const recordCount = async (organisationId: string) =>
    (await catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.records WHERE organisation_id = $1', [organisationId]))[0].n;

  it('imports an uploaded Turtle catalogue as metadata-only records of the importer, reporting progress and counts', async () => {
    const started = await upload(importer, 'regional-catalogue.ttl', TURTLE, 'text/turtle').expect(202);
    expect(started.body).toMatchObject({ job_id: expect.any(String), source: 'regional-catalogue.ttl', datasets: 3 });
    const done = await completion(started.body.job_id);
    expect(done.payload).toMatchObject({ status: 'done', harvest: { total: 3, created: 3, updated: 0, failed: 0, failures: [] } });
    expect(done.payload.info).toBe('Imported 3 of 3 datasets from regional-catalogue.ttl: 3 created, 0 updated.');
    const events = (await catalogue.events(started.body.job_id)).map((e) => e.type);
    expect(events).toEqual(['job.started', 'job.progressed', 'job.progressed', 'job.progressed', 'job.completed']);

    const records = await importedRecords(org, importer);
    expect(records.every((r) => r.user === 'importer' && r.origin === 'metadata' && r.organisation.id === org)).toBe(true);
    expect(records[0].provenance).toBe('Imported from the DCAT catalogue regional-catalogue.ttl');
    const expected = (await readDcat(TURTLE, 'turtle', { maxDatasets: 10 })).map(kept);
    expect(byTitle(records.map((r) => kept(datasetOfFields({ name: r.name, description: r.description, recordFields: r.record_fields }))))).toEqual(
      byTitle(expected),
    );
  });

  it('imports JSON-LD, and a re-import updates the records instead of duplicating them', async () => {
    const first = await upload(importer, 'harbour.jsonld', JSONLD).expect(202);
    expect((await completion(first.body.job_id)).payload.harvest).toMatchObject({ created: 2, updated: 0 });
    const before = await recordCount(org);
    expect(before).toBe(5);

    // The source changed a title: the same dataset IRI, so the same record, renamed.
    const changed = JSONLD.replace('"Tides"', '"Tides and currents"');
    const again = await upload(importer, 'harbour.jsonld', changed).expect(202);
    expect((await completion(again.body.job_id)).payload.harvest).toMatchObject({ created: 0, updated: 2, failed: 0 });
    const turtleAgain = await upload(importer, 'regional-catalogue.ttl', TURTLE).expect(202);
    expect((await completion(turtleAgain.body.job_id)).payload.harvest).toMatchObject({ created: 0, updated: 3 });
    expect(await recordCount(org)).toBe(before);
    // Relative IRIs of an uploaded file resolve against its name: uploading it again names the same dataset.
    // A record deleted since is made anew.
    const relative = `@prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> . <#gauges> a dcat:Dataset ; dct:title "Gauges" .`;
    const gauges = async () =>
      (
        await catalogue.sql<{ record_id: string }>('SELECT record_id FROM catalogue.harvested_datasets WHERE source_iri = $1', [
          'urn:dc:upload:relative.ttl/#gauges',
        ])
      )[0].record_id;
    for (const expected of [{ created: 1, updated: 0 }, { created: 0, updated: 1 }, 'delete', { created: 1, updated: 0 }, 'delete'] as const) {
      if (expected === 'delete') {
        await catalogue
          .http()
          .delete(`/api/records/${await gauges()}/`)
          .set(catalogue.auth(importer))
          .expect(204);
        continue;
      }
      const sent = await upload(importer, 'relative.ttl', relative).expect(202);
      expect((await completion(sent.body.job_id)).payload.harvest).toMatchObject(expected);
    }
    const names = (await importedRecords(org, importer)).map((r) => r.name).sort();
    expect(names).toEqual(['Air quality 2024', 'Bike counts', "Qualité de l'eau", 'Ship arrivals', 'Tides and currents']);
  });

  it('imports from a URL through the address guard, and another organisation gets records of its own', async () => {
    served['/catalog.ttl'] = { type: 'text/turtle; charset=utf-8', body: TURTLE };
    const started = await catalogue
      .http()
      .post('/api/harvests/')
      .set(catalogue.auth(outsider))
      .send({ url: `${base}/catalog.ttl` })
      .expect(202);
    expect(started.body.source).toBe(`${base}/catalog.ttl`);
    expect((await completion(started.body.job_id)).payload.harvest).toMatchObject({ created: 3, failed: 0 });
    expect(await recordCount(otherOrg)).toBe(3);
    // A form with the address instead of the file: the same import, so the same records, updated.
    const form = await catalogue.http().post('/api/harvests/').set(catalogue.auth(outsider)).field('url', `${base}/catalog.ttl`).expect(202);
    expect((await completion(form.body.job_id)).payload.harvest).toMatchObject({ created: 0, updated: 3 });
    expect(await recordCount(otherOrg)).toBe(3);
    const empty = await catalogue.http().post('/api/harvests/').set(catalogue.auth(outsider)).field('note', 'nothing').expect(400);
    expect(empty.body).toEqual({ file: ['Send the catalogue as the "file" part, or its address as "url".'] });
    // The importer's organisation kept its own records.
    expect(await recordCount(org)).toBe(5);
  });

  it('refuses what is not allowed or not a DCAT catalogue with a 400, creating nothing', async () => {
    const jobsBefore = (await catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.harvest_jobs'))[0].n;
    const recordsBefore = await recordCount(org);
    const post = (body: object) => catalogue.http().post('/api/harvests/').set(catalogue.auth(importer)).send(body);

    // Private addresses the operator did not allow: refused before any connection.
    for (const url of ['http://10.1.2.3/catalog.ttl', 'http://[::1]:9/catalog.ttl', 'http://192.168.0.10/catalog.ttl']) {
      const refused = await post({ url }).expect(400);
      expect(refused.body.url[0]).toContain('local or private network address');
    }
    expect((await post({ url: 'ftp://example.org/x.ttl' }).expect(400)).body).toEqual({ url: ['Enter a valid http or https URL.'] });
    expect((await post({}).expect(400)).body).toEqual({ url: ['This field is required.'] });
    served['/missing-nothing'] = { type: 'text/html', body: '<html><body>Not a catalogue</body></html>' };
    expect((await post({ url: `${base}/missing-nothing` }).expect(400)).body.url[0]).toContain('not valid Turtle');
    expect((await post({ url: `${base}/gone.ttl` }).expect(400)).body).toEqual({ url: ['The URL answered HTTP 404.'] });
    served['/big.ttl'] = { type: 'text/turtle', body: TURTLE + `# ${'x'.repeat(MAX_BYTES)}\n` };
    expect((await post({ url: `${base}/big.ttl` }).expect(400)).body.url[0]).toContain(`larger than ${MAX_BYTES} bytes`);

    expect((await upload(importer, 'notes.txt', 'just some words').expect(400)).body.file[0]).toContain('not valid Turtle');
    const noDatasets = '@prefix dct: <http://purl.org/dc/terms/> . <https://x.example/a> dct:title "A thing" .';
    expect((await upload(importer, 'empty.ttl', noDatasets).expect(400)).body).toEqual({ file: ['The document holds no dcat:Dataset.'] });
    const remote = JSON.stringify({ '@context': 'https://evil.example/context.jsonld', '@id': 'https://x.example/d', '@type': 'Dataset' });
    expect((await upload(importer, 'remote.jsonld', remote).expect(400)).body.file[0]).toContain('remote context https://evil.example/context.jsonld');
    expect((await upload(importer, 'big.ttl', TURTLE + `# ${'x'.repeat(MAX_BYTES)}\n`).expect(400)).body.file[0]).toContain(`larger than ${MAX_BYTES} bytes`);

    expect((await catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.harvest_jobs'))[0].n).toBe(jobsBefore);
    expect(await recordCount(org)).toBe(recordsBefore);
  });

  it('refuses anonymous callers', async () => {
    await catalogue
      .http()
      .post('/api/harvests/')
      .send({ url: `${base}/catalog.ttl` })
      .expect(401);
  });

  it('takes up an import that a stopped instance left running, where it stopped', async () => {
    const started = await upload(importer, 'harbour-2.jsonld', JSONLD.replaceAll('harbour.example.net', 'harbour2.example.net')).expect(202);
    await completion(started.body.job_id);
    // As if its instance had died after the first dataset: rewound, held by an instance nobody runs.
    const jobId = randomUUID();
    await catalogue.sql(
      `INSERT INTO catalogue.harvest_jobs (job_id, owner, source, datasets, done, outcome, status, holder)
       SELECT $1, owner, 'harbour-3.jsonld', datasets, 1, '{"total": 2, "created": 1, "updated": 0, "failed": 0, "failures": []}', 'running', $2 FROM catalogue.harvest_jobs WHERE job_id = $3`,
      [jobId, randomUUID(), started.body.job_id],
    );
    await catalogue.get(HarvestRunner).takeOverAbandoned();
    const done = await completion(jobId);
    expect(done.payload.harvest).toMatchObject({ total: 2, updated: 1, created: 1, failed: 0 });
    expect((await catalogue.sql<{ status: string }>('SELECT status FROM catalogue.harvest_jobs WHERE job_id = $1', [jobId]))[0].status).toBe('done');
  });
});
