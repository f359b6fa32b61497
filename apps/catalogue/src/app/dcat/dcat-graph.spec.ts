import { Store } from 'n3';
import { validateDcatAp } from '@dc/testing';
import { catalogGraph, datasetGraph } from './dcat-graph';
import { V } from './dcat-vocabulary';
import { DcatUrls, type PublicDataset } from './public-dataset';

const urls = new DcatUrls('https://catalogue.example.org/');
const dataset: PublicDataset = {
  id: '3f0c2a9e-0000-4000-8000-000000000001',
  title: 'Rainfall',
  description: '',
  keywords: ['rain', 'station'],
  issued: new Date('2026-01-02T03:04:05Z'),
  modified: new Date('2026-02-03T04:05:06Z'),
  publisher: { id: 'org-1', name: 'Acme' },
  accessRights: 'RESTRICTED',
  fee: null,
  distributions: [{ id: 'f1', title: 'rain.csv', contentType: 'text/csv', byteSize: 120, issued: new Date('2026-01-02T03:04:05Z'), downloadUrl: null }],
};

/** The graph builder against the official DCAT-AP 3.0.1 shapes, and the shapes against a graph that lacks what they require. */
describe('DCAT-AP graph', () => {
  it('conforms to the DCAT-AP 3.0.1 shapes, an empty description included', async () => {
    const data = new Store(datasetGraph(urls, dataset));
    expect(await validateDcatAp(data)).toEqual({ conforms: true, results: [] });
    expect(data.getObjects(urls.dataset(dataset.id), V.dct.description, null).map((t) => t.value)).toEqual(['No description was given for this dataset.']);
  });

  it('is reported when a mandatory property is missing: the check can fail', async () => {
    const data = new Store(datasetGraph(urls, dataset).filter((q) => q.predicate.value !== V.dct.title));
    const report = await validateDcatAp(data);
    expect(report.conforms).toBe(false);
    expect(report.results).toEqual([
      expect.objectContaining({ severity: 'http://www.w3.org/ns/shacl#Violation', focusNode: urls.dataset(dataset.id), path: V.dct.title }),
    ]);
  });

  it('names the pages around a page of the catalogue', () => {
    const page = (n: number) =>
      new Store(
        catalogGraph(urls, { datasets: [], page: n, pageSize: 10, defaultPageSize: 100, totalItems: 25, title: 'T', description: 'D', publisherName: 'P' }),
      );
    const links = (n: number) =>
      Object.fromEntries(
        (['first', 'previous', 'next', 'last'] as const).map((rel) => [
          rel,
          page(n)
            .getObjects(null, V.hydra[rel], null)
            .map((t) => new URL(t.value).search),
        ]),
      );
    expect(links(1)).toEqual({ first: ['?page=1&page_size=10'], previous: [], next: ['?page=2&page_size=10'], last: ['?page=3&page_size=10'] });
    expect(links(3)).toEqual({ first: ['?page=1&page_size=10'], previous: ['?page=2&page_size=10'], next: [], last: ['?page=3&page_size=10'] });
  });
});
