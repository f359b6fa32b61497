import path from 'node:path';
import { statSync } from 'node:fs';
import { describeInfra, eventually } from '@dc/testing';
import { type Caller, DATASETS } from '../../testing/catalogue-test-app';
import { friend, orgA, orgB, orgC, outsider, owner, useRecordsApi } from '../../testing/records-api.fixture';
import { datasetOfFields } from './dataset-record';
import { formatOf, readDcat, type HarvestedDataset } from './dcat-reader';

const CSV = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const TEXT = path.join(DATASETS, 'txt/Alaska_SOTS.txt');

const kept = (d: HarvestedDataset) => ({ title: d.title, description: d.description, keywords: d.keywords, distributions: d.distributions });
const byTitle = <T extends { title: string }>(list: T[]) => [...list].sort((a, b) => a.title.localeCompare(b.title));

/**
 * Round trip: the DCAT-AP catalogue this product publishes (GET /api/dcat/catalog, docs/dcat.md) of
 * one organisation's Everyone-visible records, imported into two other organisations, once as Turtle
 * and once as JSON-LD: the same titles, descriptions, keywords and distributions (title, media type,
 * format, access and download URLs, byte size), on real PostgreSQL.
 */
describeInfra('DCAT round trip: export from one organisation, import into another (real PostgreSQL)', true, () => {
  jest.setTimeout(180_000);
  const api = useRecordsApi({ maxUploadBytes: 50 * 1024 * 1024 });
  const published: Array<{ name: string; description: string; files: Array<{ name: string; size: number }> }> = [];

  beforeAll(async () => {
    const made = async (files: string[], fields: Record<string, string>) => {
      const answer = await api.upload(owner, files, fields);
      expect(answer.status).toBe(201);
      const record = Array.isArray(answer.body) ? answer.body[0] : answer.body;
      published.push({
        name: fields.name,
        description: fields.description ?? '',
        files: files.map((f) => ({ name: path.basename(f), size: statSync(f).size })),
      });
      return record.id as string;
    };
    const withFiles = [
      await made([CSV], { name: 'Global CO2', description: 'Annual mean CO2 at the surface.', access: 'OP', visibility: 'EV' }),
      await made([TEXT], { name: 'State of the State, Alaska', description: 'A speech, on request.', visibility: 'EV' }),
    ];
    await made([], { name: 'Tide gauges', description: 'Sea levels of the harbour gauges.', access: 'OP', visibility: 'EV' });
    // Keywords come from the extracted words: exported once extraction is done.
    for (const id of withFiles)
      await eventually(async () => {
        const details = await api.http().get(`/api/records/${id}`).set(api.as(owner));
        expect(details.body.extraction_status).toBe('done');
      }, 120_000);
  });

  const exported = async (accept: string) => {
    const answer = await api.http().get('/api/dcat/catalog?page_size=100').set('Accept', accept);
    expect(answer.status).toBe(200);
    return { text: answer.text, contentType: String(answer.headers['content-type']) };
  };

  const importInto = async (who: Caller, text: string, fileName: string) => {
    const started = await api
      .http()
      .post('/api/harvests/')
      .set(api.as(who))
      .attach('file', Buffer.from(text), { filename: fileName, contentType: 'application/octet-stream' });
    expect(started.status).toBe(202);
    const done = await eventually(async () => {
      const completed = (await api.outbox(started.body.job_id)).find((e) => e.type === 'job.completed');
      if (!completed) throw new Error('the import is still running');
      return completed.payload as { harvest: { created: number; failed: number; failures: unknown[] } };
    });
    expect(done.harvest).toMatchObject({ created: 3, failed: 0, failures: [] });
  };

  const importedBy = async (organisationId: string, who: Caller) => {
    const rows = await api.catalogue.sql<{ record_id: string }>('SELECT record_id FROM catalogue.harvested_datasets WHERE organisation_id = $1', [
      organisationId,
    ]);
    const datasets = [];
    for (const { record_id } of rows) {
      const details = await api.http().get(`/api/records/${record_id}`).set(api.as(who));
      expect(details.status).toBe(200);
      datasets.push(datasetOfFields({ name: details.body.name, description: details.body.description, recordFields: details.body.record_fields }));
    }
    return byTitle(datasets);
  };

  it.each([
    ['Turtle', 'text/turtle', 'acme.ttl', outsider, orgB],
    ['JSON-LD', 'application/ld+json', 'acme.jsonld', friend, orgC],
  ] as const)('keeps titles, descriptions, keywords and distributions through %s', async (_format, accept, fileName, importer, organisationId) => {
    const { text, contentType } = await exported(accept);
    const source = byTitle(await readDcat(text, formatOf(text, contentType), { maxDatasets: 100 }));
    // What the export says is what the product holds: the source organisation's records and files.
    expect(source.map((d) => ({ title: d.title, description: d.description }))).toEqual(
      byTitle(published.map((p) => ({ title: p.name, description: p.description }))),
    );
    for (const record of published) {
      const dataset = source.find((d) => d.title === record.name)!;
      expect(dataset.distributions.map((d) => d.byteSize).sort()).toEqual(record.files.map((f) => f.size).sort());
    }
    expect(source.find((d) => d.title === 'Global CO2')!.keywords).toEqual(expect.arrayContaining(['mean', 'year']));
    expect(source.find((d) => d.title === 'Global CO2')!.distributions[0]).toMatchObject({
      mediaType: 'http://www.iana.org/assignments/media-types/text/csv',
      accessUrl: expect.stringMatching(/^http/),
      downloadUrl: expect.stringMatching(/^http/),
    });

    await importInto(importer, text, fileName);
    const imported = await importedBy(organisationId, importer);
    expect(imported.map(kept)).toEqual(source.map(kept));
    // The datasets are known by their IRIs in the exporting catalogue.
    expect(imported.map((d) => d.iri)).toEqual(source.map((d) => d.iri));

    // Imported again: the same records, updated.
    await api.http().post('/api/harvests/').set(api.as(importer)).attach('file', Buffer.from(text), { filename: fileName }).expect(202);
    await eventually(async () => {
      const [row] = await api.catalogue.sql<{ n: number; running: number }>(
        `SELECT (SELECT count(*) FROM catalogue.records WHERE organisation_id = $1)::int AS n,
                (SELECT count(*) FROM catalogue.harvest_jobs WHERE status = 'running')::int AS running`,
        [organisationId],
      );
      expect(row).toEqual({ n: 3, running: 0 });
    });
    // The imported records are private: the exporting catalogue still publishes the source organisation's three only.
    expect(await readDcat((await exported('text/turtle')).text, 'turtle', { maxDatasets: 100 })).toHaveLength(3);
  });

  it('leaves the source organisation as it was', async () => {
    const [row] = await api.catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.records WHERE organisation_id = $1', [orgA]);
    expect(row.n).toBe(3);
  });
});
