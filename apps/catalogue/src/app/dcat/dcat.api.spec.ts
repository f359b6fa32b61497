import path from 'node:path';
import { statSync } from 'node:fs';
import jsonld from 'jsonld';
import type { Store } from 'n3';
import { describeInfra, eventually, turtleDataset, validateDcatAp } from '@dc/testing';
import { DATASETS } from '../../testing/catalogue-test-app';
import { friend, owner, outsider, useRecordsApi } from '../../testing/records-api.fixture';
import { ACCESS_RIGHT, JSON_LD, TURTLE, V } from './dcat-vocabulary';

const CSV = path.join(DATASETS, 'csv/co2-annmean-gl.csv');

const objects = (data: Store, subject: string | null, predicate: string) => data.getObjects(subject, predicate, null).map((t) => t.value);
const subjectsOfType = (data: Store, type: string) => data.getSubjects(V.rdf.type, type, null).map((t) => t.value);

/**
 * The DCAT-AP 3.0.1 publication (docs/dcat.md) on real PostgreSQL, validated by a real SHACL engine
 * (rdf-validate-shacl) against the official shapes kept in libs/testing/standards: records made
 * through the API (an uploaded CSV, metadata-only ones, private and custom-visibility ones).
 */
describeInfra('catalogue: DCAT-AP publication of the records everyone may see (real PostgreSQL, SHACL)', true, () => {
  const api = useRecordsApi({ maxUploadBytes: 50 * 1024 * 1024 });
  const ids: Record<'openCsv' | 'requestOnly' | 'openNoFile' | 'friends' | 'privateOne' | 'custom', string> = {} as never;

  beforeAll(async () => {
    const made = async (call: ReturnType<typeof api.upload>) => {
      const answer = await call;
      expect(answer.status).toBe(201);
      return (Array.isArray(answer.body) ? answer.body[0] : answer.body).id as string;
    };
    ids.openCsv = await made(
      api.upload(owner, [CSV], { name: 'Global CO2 </script><script>alert(1)</script>', description: 'Annual mean CO2.', access: 'OP', visibility: 'EV' }),
    );
    ids.requestOnly = await made(api.upload(owner, [], { name: 'Tide gauges', description: 'Sea levels, on request.', visibility: 'EV', accessFee: '25' }));
    ids.openNoFile = await made(api.upload(owner, [], { name: 'Described only', access: 'OP', visibility: 'EV' }));
    ids.friends = await made(api.upload(friend, [], { name: 'Cyan rivers', description: 'Rivers.', visibility: 'EV' }));
    ids.privateOne = await made(api.upload(owner, [], { name: 'Secret payroll', description: 'Never published.', visibility: 'PR', access: 'OP' }));
    ids.custom = await made(api.upload(owner, [], { name: 'Shared with Blue', description: 'Custom visibility.', access: 'OP' }));
    const shared = await api.http().put(`/api/records/${ids.custom}/`).set(api.as(owner)).send({ visibility: 'CU' });
    expect(shared.status).toBe(200);
    await eventually(async () => {
      const details = await api.http().get(`/api/records/${ids.openCsv}`);
      expect(details.body.extraction_status).toBe('done');
    });
  });

  const everyoneVisible = () => [ids.openCsv, ids.requestOnly, ids.openNoFile, ids.friends];
  const turtle = async (url: string) => {
    const answer = await api.http().get(url).set('Accept', TURTLE);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/turtle/);
    return turtleDataset(answer.text);
  };
  const datasetIri = (id: string) => `${new URL(objects(dataCache!, null, V.hydra.first)[0]).origin}/api/dcat/datasets/${id}`;
  let dataCache: Store | null = null;

  it('publishes a catalogue that the DCAT-AP 3.0.1 shapes find no violation in', async () => {
    const data = await turtle('/api/dcat/catalog');
    dataCache = data;
    const report = await validateDcatAp(data);
    const violations = report.results.filter((r) => r.severity === 'http://www.w3.org/ns/shacl#Violation');
    expect(violations).toEqual([]);
    // The shapes of 3.0.1 mark nothing as a warning: every result would be a violation.
    expect(report.results).toEqual([]);
    expect(report.conforms).toBe(true);
    expect(subjectsOfType(data, V.dcat.Catalog)).toHaveLength(1);
    expect(subjectsOfType(data, V.dcat.Dataset).sort()).toEqual(everyoneVisible().map(datasetIri).sort());
  });

  it('publishes no record that an anonymous visitor may not see, in any form', async () => {
    for (const format of [TURTLE, JSON_LD]) {
      const answer = await api.http().get('/api/dcat/catalog').set('Accept', format);
      expect(answer.status).toBe(200);
      for (const hidden of [ids.privateOne, ids.custom, 'Secret payroll', 'Shared with Blue']) expect(answer.text).not.toContain(hidden);
    }
    for (const hidden of [ids.privateOne, ids.custom, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const url of [`/api/dcat/datasets/${hidden}`, `/api/dcat/datasets/${hidden}/schema-org`]) {
        const answer = await api.http().get(url);
        expect({ url, status: answer.status, body: answer.body }).toEqual({ url, status: 404, body: { detail: 'Not found.' } });
      }
    }
    // Signed in or not, the publication is the anonymous one.
    const signedIn = await api.http().get('/api/dcat/catalog').set(api.as(outsider));
    expect(signedIn.text).not.toContain(ids.custom);
  });

  it('a record leaves the publication when it stops being public: made private, owner-only (lineage) or deleted', async () => {
    const made = await api.upload(owner, [], { name: 'Briefly public', description: 'Soon gone.', visibility: 'EV' });
    const id = made.body.id as string;
    const listed = async () => subjectsOfType(await turtle('/api/dcat/catalog?page_size=500'), V.dcat.Dataset).includes(datasetIri(id));
    expect(await listed()).toBe(true);
    expect((await api.http().get(`/api/dcat/datasets/${id}`)).status).toBe(200);
    // Owner-only (a derivative of data shared with its maker alone) whatever its visibility says.
    await api.catalogue.sql('UPDATE catalogue.records SET owner_only = true WHERE id = $1', [id]);
    expect(await listed()).toBe(false);
    expect((await api.http().get(`/api/dcat/datasets/${id}`)).status).toBe(404);
    await api.catalogue.sql('UPDATE catalogue.records SET owner_only = false WHERE id = $1', [id]);
    expect((await api.http().put(`/api/records/${id}/`).set(api.as(owner)).send({ visibility: 'PR' })).status).toBe(200);
    expect(await listed()).toBe(false);
    expect((await api.http().get(`/api/dcat/datasets/${id}/schema-org`)).status).toBe(404);
    expect((await api.http().put(`/api/records/${id}/`).set(api.as(owner)).send({ visibility: 'EV' })).status).toBe(200);
    expect(await listed()).toBe(true);
    expect((await api.http().delete(`/api/records/${id}/`).set(api.as(owner))).status).toBe(204);
    expect(await listed()).toBe(false);
  });

  it('a paging walk from hydra:first along hydra:next visits every published record once', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/api/dcat/catalog?page_size=1';
    let pages = 0;
    let last = '';
    while (url) {
      const data = await turtle(url);
      pages += 1;
      expect(subjectsOfType(data, V.hydra.PartialCollectionView)).toHaveLength(1);
      expect(objects(data, null, V.hydra.totalItems)).toEqual(['4']);
      last = objects(data, null, V.hydra.last)[0];
      seen.push(...subjectsOfType(data, V.dcat.Dataset));
      const next = objects(data, null, V.hydra.next)[0];
      expect(objects(data, null, V.hydra.nextPage)[0]).toBe(next);
      url = next ? new URL(next).pathname + new URL(next).search : undefined;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(4);
    expect(new URL(last).search).toBe('?page=4&page_size=1');
    expect(seen.sort()).toEqual(everyoneVisible().map(datasetIri).sort());
    // Past the last page: the catalogue without datasets.
    expect(subjectsOfType(await turtle('/api/dcat/catalog?page=9&page_size=1'), V.dcat.Dataset)).toEqual([]);
  });

  it("a record's own DCAT: title, description, keywords, dates, publisher, contact, access rights and its file", async () => {
    const data = await turtle(`/api/dcat/datasets/${ids.openCsv}`);
    expect((await validateDcatAp(data)).results).toEqual([]);
    const dataset = datasetIri(ids.openCsv);
    expect(objects(data, dataset, V.dct.title)).toEqual(['Global CO2 </script><script>alert(1)</script>']);
    expect(objects(data, dataset, V.dct.description)).toEqual(['Annual mean CO2.']);
    // Keywords are the words anonymous visitors see in META: the headers' words, never a cell's.
    expect(objects(data, dataset, V.dcat.keyword)).toEqual(expect.arrayContaining(['year', 'mean', 'uncertainty']));
    expect(objects(data, dataset, V.dcat.keyword).join(' ')).not.toMatch(/336\.85|1979/);
    expect(objects(data, dataset, V.dct.accessRights)).toEqual([ACCESS_RIGHT.PUBLIC]);
    const [publisher] = objects(data, dataset, V.dct.publisher);
    expect(objects(data, publisher, V.foaf.name)).toEqual(['Acme']);
    const [contact] = objects(data, dataset, V.dcat.contactPoint);
    expect(objects(data, contact, V.vcard.fn)).toEqual(['Acme']);
    expect(objects(data, dataset, V.dct.issued)[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(objects(data, dataset, V.dct.modified)[0]).toMatch(/^\d{4}-\d\d-\d\dT/);

    const [distribution] = objects(data, dataset, V.dcat.distribution);
    expect(objects(data, distribution, V.dcat.mediaType)).toEqual(['http://www.iana.org/assignments/media-types/text/csv']);
    expect(objects(data, distribution, V.dcat.byteSize)).toEqual([String(statSync(CSV).size)]);
    expect(objects(data, distribution, V.dcat.accessURL)[0]).toMatch(new RegExp(`/records/${ids.openCsv}$`));
    // Open: anyone may download, through a stable URL that answers a fresh signed link.
    const [download] = objects(data, distribution, V.dcat.downloadURL);
    const redirect = await api.http().get(new URL(download).pathname);
    expect(redirect.status).toBe(302);
    const file = await api.http().get(new URL(redirect.headers.location).pathname + new URL(redirect.headers.location).search);
    expect(file.status).toBe(200);
    expect(file.text ?? file.body.toString()).toContain('Year,Mean,Uncertainty');
  });

  it('access on request: RESTRICTED, and no download URL', async () => {
    const data = await turtle(`/api/dcat/datasets/${ids.requestOnly}`);
    expect(objects(data, datasetIri(ids.requestOnly), V.dct.accessRights)).toEqual([ACCESS_RIGHT.RESTRICTED]);
    expect(objects(data, null, V.dcat.downloadURL)).toEqual([]);
  });

  it('JSON-LD by content negotiation (or ?format=jsonld) holds the same triples', async () => {
    const answer = await api.http().get('/api/dcat/catalog').set('Accept', JSON_LD);
    expect(answer.headers['content-type']).toMatch(/^application\/ld\+json/);
    const expanded = await jsonld.expand(JSON.parse(answer.text));
    const datasets = expanded.filter((node) => (node['@type'] as string[] | undefined)?.includes(V.dcat.Dataset)).map((node) => node['@id']);
    expect(datasets.sort()).toEqual(everyoneVisible().map(datasetIri).sort());
    const nquads = (await jsonld.toRDF(JSON.parse(answer.text), { format: 'application/n-quads' })) as unknown as string;
    expect(turtleDataset(nquads).size).toBe(dataCache!.size);
    expect((await api.http().get('/api/dcat/catalog?format=jsonld')).headers['content-type']).toMatch(/^application\/ld\+json/);
    // Turtle is the default; an Accept that names neither is refused.
    expect((await api.http().get('/api/dcat/catalog')).headers['content-type']).toMatch(/^text\/turtle/);
    const refused = await api.http().get('/api/dcat/catalog').set('Accept', 'application/xml');
    expect({ status: refused.status, detail: refused.body.detail }).toEqual({ status: 406, detail: expect.stringContaining('text/turtle') });
  });
});
