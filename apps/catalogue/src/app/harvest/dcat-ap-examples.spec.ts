import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { datasetOfFields, recordFieldsOf } from './dataset-record';
import { formatOf, readDcat } from './dcat-reader';

/**
 * The DCAT-AP 3.0.1 release's own example files (SEMICeu/DCAT-AP, releases/3.0.1/html/examples/,
 * CC-BY 4.0), copied unchanged into harvest/testing/dcat-ap-3.0.1/. Their JSON-LD names the examples'
 * remote context, which the reader answers from its bundled copy (no network).
 */
const EXAMPLES = join(__dirname, 'testing', 'dcat-ap-3.0.1');
const EXPECTED: Record<string, Array<{ title: string; distributions: number }>> = {
  'example-bee-population-dataset-series-ordered.ttl': [
    { title: 'Bee population: BeePopulation2022', distributions: 0 },
    { title: 'Bee population: BeePopulation2023', distributions: 0 },
  ],
  'example-bee-population-dataset-series-gea-nha.jsonld': [
    { title: 'Bee population 2000 in Greece', distributions: 0 },
    { title: 'Bee population 2022 in the region of Thessaloniki', distributions: 0 },
    { title: 'Bee population 2023 in the region of Thessaloniki and Athens', distributions: 0 },
  ],
  'example-bee-population-dataset-series-api.jsonld': [{ title: 'Bee population 2023 in the region of Thessaloniki and Athens', distributions: 2 }],
  'example-bee-population-dataset-series-spatial-thessaloniki.jsonld': [{ title: 'Bee population 2022 in the region of Thessaloniki', distributions: 0 }],
};

describe('the DCAT-AP 3.0.1 example files', () => {
  it.each(Object.keys(EXPECTED))('reads %s', async (name) => {
    const file = join(EXAMPLES, name);
    if (!existsSync(file)) throw new Error(`Copy ${name} from SEMICeu/DCAT-AP releases/3.0.1/html/examples/ to ${EXAMPLES}`);
    const text = readFileSync(file, 'utf8');
    const datasets = await readDcat(text, formatOf(text, '', name), { maxDatasets: 10, baseIri: 'urn:dc:upload:example/' });
    expect(datasets.map((d) => ({ title: d.title, distributions: d.distributions.length })).sort((a, b) => a.title.localeCompare(b.title))).toEqual(
      EXPECTED[name],
    );
    for (const dataset of datasets) expect(datasetOfFields(recordFieldsOf(dataset))).toEqual({ ...dataset, landingPage: '' });
  });
});
