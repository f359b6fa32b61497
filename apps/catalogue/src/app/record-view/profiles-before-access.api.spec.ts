import { randomUUID } from 'node:crypto';
import { describeInfra, eventually } from '@dc/testing';
import { caller } from '../../testing/catalogue-test-app';
import { useOneCallerCatalogue } from '../../testing/records-api.fixture';

const owner = caller('owner', randomUUID(), [1, 2, 3]);

/** 60 people: an age (40 values), a city (Paris 30, Lyon 25, Nice 5), a visit date, a near-unique code and a date of birth. */
const cities = [...Array(30).fill('Paris'), ...Array(25).fill('Lyon'), ...Array(5).fill('Nice')] as string[];
const CSV = `${[
  'age,city,visited,code,date of birth',
  ...cities.map((city, i) => `${20 + (i % 40)},${city},2024-0${1 + (i % 3)}-1${i % 10},C${1000 + i},19${50 + (i % 40)}-01-1${i % 10}`),
].join('\n')}\n`;

type Stats = Record<string, unknown>;
interface Details {
  FILES: Array<{ META: { FILE: { HEADERS: string[]; STATS: Record<string, Stats> } } }>;
}
const column = (body: Details, header: string): Stats => {
  const { FILE } = body.FILES[0].META;
  return FILE.STATS[String(FILE.HEADERS.indexOf(header))];
};

/**
 * The Statistics tab's distributions (HISTOGRAM, QUARTILES, TOP_VALUES) through the API, by
 * docs/metadata-before-access.md: the owner sees them all; an anonymous visitor of an Everyone
 * record with request access sees no histogram or quartiles where MIN and MAX are withheld, and no
 * most frequent value of an identifying or near-unique column, nor one found in fewer than 10 rows.
 */
describeInfra('catalogue: column profiles before access is granted (real PostgreSQL)', true, () => {
  const suite = useOneCallerCatalogue('dc_catalogue_profiles_access', owner);

  const publicRecord = async (extractOption: 'metadata' | 'samples') => {
    const created = await suite.catalogue
      .http()
      .post('/api/records/')
      .set(suite.auth)
      .field('allowDuplicate', 'true')
      .field('extractOption', extractOption)
      .attach('file', Buffer.from(CSV), 'people.csv');
    expect(created.status).toBe(201);
    expect((await suite.catalogue.http().put(`/api/records/${created.body.id}/`).set(suite.auth).send({ visibility: 'EV' })).status).toBe(200);
    await eventually(async () => {
      const details = await suite.catalogue.http().get(`/api/records/${created.body.id}`);
      expect(details.body.extraction_status).toBe('done');
    });
    const anonymous = (await suite.catalogue.http().get(`/api/records/${created.body.id}`)).body as Details;
    const owners = (await suite.catalogue.http().get(`/api/records/${created.body.id}`).set(suite.auth)).body as Details;
    return { anonymous, owners };
  };

  it('metadata (the default): histograms and quartiles of columns that describe many people; none of the date of birth; no most frequent value for anyone', async () => {
    const { anonymous, owners } = await publicRecord('metadata');
    expect(column(owners, 'age')).toMatchObject({ HISTOGRAM: { kind: 'number', exact: true }, QUARTILES: { median: expect.any(Number) } });
    expect(column(anonymous, 'age').HISTOGRAM).toEqual(column(owners, 'age').HISTOGRAM);
    expect(column(anonymous, 'age').QUARTILES).toEqual(column(owners, 'age').QUARTILES);
    expect(column(owners, 'visited')).toMatchObject({ HISTOGRAM: { kind: 'date' } });
    expect(column(anonymous, 'visited')).toMatchObject({ HISTOGRAM: { kind: 'date' } });
    // A date of birth singles someone out: its histogram (its edges are the oldest and youngest) is the owner's.
    expect(column(owners, 'date of birth')).toMatchObject({ HISTOGRAM: { kind: 'date' } });
    expect(column(anonymous, 'date of birth')).not.toHaveProperty('HISTOGRAM');
    // Most frequent values are cells: under metadata nobody sees them, the owner neither (META is masked).
    for (const body of [owners, anonymous]) for (const header of ['city', 'code']) expect(column(body, header)).not.toHaveProperty('TOP_VALUES');
  });

  it('samples: the owner sees every most frequent value; others only those of 10 rows or more, of columns that identify nobody', async () => {
    const { anonymous, owners } = await publicRecord('samples');
    expect(column(owners, 'city').TOP_VALUES).toEqual([
      { value: 'Paris', count: 30 },
      { value: 'Lyon', count: 25 },
      { value: 'Nice', count: 5 },
    ]);
    expect(column(anonymous, 'city').TOP_VALUES).toEqual([
      { value: 'Paris', count: 30 },
      { value: 'Lyon', count: 25 },
    ]);
    expect(column(owners, 'code').TOP_VALUES).toHaveLength(10);
    expect(column(anonymous, 'code')).not.toHaveProperty('TOP_VALUES');
    expect(column(owners, 'date of birth').TOP_VALUES).toBeDefined();
    expect(column(anonymous, 'date of birth')).not.toHaveProperty('TOP_VALUES');
  });
});
