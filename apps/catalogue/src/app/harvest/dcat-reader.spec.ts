import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { datasetOfFields, recordFieldsOf } from './dataset-record';
import { DcatReadError, formatOf, readDcat } from './dcat-reader';

const fixture = (name: string) => readFileSync(join(__dirname, 'testing', name), 'utf8');
const byTitle = <T extends { title: string }>(list: T[]) => [...list].sort((a, b) => a.title.localeCompare(b.title));

describe('readDcat', () => {
  it('reads the datasets of a Turtle catalogue: English titles first, keywords, distributions', async () => {
    const datasets = byTitle(await readDcat(fixture('regional-catalogue.ttl'), 'turtle', { maxDatasets: 10 }));
    expect(datasets.map((d) => d.title)).toEqual(['Air quality 2024', 'Bike counts', "Qualité de l'eau"]);
    const [air, bikes, water] = datasets;
    expect(air).toMatchObject({
      iri: 'https://data.example.org/dataset/air-quality',
      description: "Hourly NO2 and PM10 readings of the region's twelve stations.",
      keywords: ['air', 'pollution'],
      landingPage: 'https://data.example.org/air',
    });
    expect(air.distributions).toEqual([
      {
        title: 'Readings API',
        mediaType: 'http://www.iana.org/assignments/media-types/application/json',
        format: '',
        accessUrl: 'https://api.example.org/air',
        downloadUrl: '',
        byteSize: null,
      },
      {
        title: 'Readings as CSV',
        mediaType: 'http://www.iana.org/assignments/media-types/text/csv',
        format: 'http://publications.europa.eu/resource/authority/file-type/CSV',
        accessUrl: 'https://data.example.org/air',
        downloadUrl: 'https://data.example.org/files/air-quality-2024.csv',
        byteSize: 482113,
      },
    ]);
    expect(bikes.keywords).toEqual(['bicycles', 'mobility']);
    expect(bikes.distributions).toEqual([expect.objectContaining({ title: 'Counts (XLSX)', byteSize: 10240 })]);
    // Only French: taken as it is; a blank node has no stable IRI.
    expect(water).toMatchObject({ keywords: ['eau'], description: "Mesures mensuelles de la qualité de l'eau." });
    expect(water.iri).toMatch(/^_:/);
  });

  it('reads JSON-LD with an inline context', async () => {
    const datasets = byTitle(await readDcat(fixture('harbour-catalogue.jsonld'), 'jsonld', { maxDatasets: 10 }));
    expect(datasets.map((d) => [d.title, d.description, d.keywords])).toEqual([
      ['Ship arrivals', 'Every ship that berthed in the harbour, with its tonnage.', ['harbour', 'shipping']],
      ['Tides', 'Waterstanden per tien minuten.', ['tides']],
    ]);
    expect(datasets[0].distributions).toEqual([
      {
        title: 'Arrivals (CSV)',
        mediaType: 'http://www.iana.org/assignments/media-types/text/csv',
        format: '',
        accessUrl: 'https://harbour.example.net/arrivals',
        downloadUrl: 'https://harbour.example.net/files/arrivals.csv',
        byteSize: 73001,
      },
    ]);
  });

  it('takes the members of a dataset series, named from the series when they have no title', async () => {
    const text = `@prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .
      <https://x.example/ds/2022> dcat:inSeries <https://x.example/series/bees> .
      <https://x.example/ds/2023> a dcat:Dataset ; dct:title "Bees 2023"@en ; dcat:inSeries <https://x.example/series/bees> .
      <https://x.example/series/bees> a dcat:DatasetSeries ; dct:title "Bee population"@en .`;
    const datasets = byTitle(await readDcat(text, 'turtle', { maxDatasets: 10 }));
    expect(datasets.map((d) => d.title)).toEqual(['Bee population: 2022', 'Bees 2023']);
  });

  it('refuses remote JSON-LD contexts, documents without datasets, too many datasets and what is not RDF', async () => {
    await expect(readDcat('{"@context": "https://evil.example/ctx.jsonld", "@id": "x"}', 'jsonld', { maxDatasets: 5 })).rejects.toThrow(
      'remote context https://evil.example/ctx.jsonld, which is not fetched',
    );
    await expect(readDcat('<a:b> <c:d> "e" .', 'turtle', { maxDatasets: 5 })).rejects.toThrow('no dcat:Dataset');
    await expect(readDcat(fixture('regional-catalogue.ttl'), 'turtle', { maxDatasets: 2 })).rejects.toThrow('holds 3 datasets; at most 2');
    await expect(readDcat('this is not rdf at all', 'turtle', { maxDatasets: 5 })).rejects.toThrow(DcatReadError);
    await expect(readDcat('{not json', 'jsonld', { maxDatasets: 5 })).rejects.toThrow('not valid JSON');
  });

  it('reads the DCAT-AP context from its bundled copy, not the network', async () => {
    const text = JSON.stringify({
      '@context': 'https://semiceu.github.io/uri.semic.eu-generated/DCAT-AP/releases/3.0.0/html/examples/context.jsonld',
      '@graph': [{ '@id': 'https://x.example/ds/1', '@type': 'Dataset', title: { en: 'One' }, datasetDistribution: ['https://x.example/dist/1'] }],
    });
    const [dataset] = await readDcat(text, 'jsonld', { maxDatasets: 5 });
    expect(dataset).toMatchObject({ iri: 'https://x.example/ds/1', title: 'One', distributions: [expect.objectContaining({ title: '' })] });
  });

  it('guesses the format from the media type, the file name or the text', () => {
    expect(formatOf('', 'application/ld+json')).toBe('jsonld');
    expect(formatOf('', '', 'cat.ttl')).toBe('turtle');
    expect(formatOf(' {"@graph": []}')).toBe('jsonld');
    expect(formatOf('@prefix dcat: <x> .')).toBe('turtle');
  });

  it('keeps a dataset as record fields and reads it back unchanged', async () => {
    for (const dataset of await readDcat(fixture('regional-catalogue.ttl'), 'turtle', { maxDatasets: 10 })) {
      const fields = recordFieldsOf(dataset);
      expect(datasetOfFields(fields)).toEqual({ ...dataset, landingPage: '' });
    }
  });
});
