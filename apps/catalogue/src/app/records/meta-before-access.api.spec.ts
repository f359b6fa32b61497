import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractMetadata } from '@dc/extraction';
import { describeInfra, eventually } from '@dc/testing';
import { caller, DATASETS } from '../../testing/catalogue-test-app';
import { useOneCallerCatalogue } from '../../testing/records-api.fixture';

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);
const HL7 = readFileSync(path.join(DATASETS, 'hl7/001_ADT_A01.hl7'));
/** The patient of that admission: name, street, town, phone, next of kin, record number. */
const PATIENT = ['DOGCOW', 'CLARUS', 'HOME STREET', 'GREENSBORO', '555-2004', 'NUCLEAR', 'NELDA', 'PATID1234'];

const leaked = (body: unknown) => PATIENT.filter((part) => JSON.stringify(body).toLowerCase().includes(part.toLowerCase()));

/**
 * docs/metadata-before-access.md through the API: an EV record with request access (the defaults)
 * shows anonymous visitors the shape of its data, never a cell, whatever the age of its META; real
 * values only when the owner chose the samples option.
 */
describeInfra('catalogue: what a record shows before access is granted (real PostgreSQL)', true, () => {
  const suite = useOneCallerCatalogue('dc_catalogue_meta_access', owner);

  /** An HL7 upload made visible to everyone, once its extraction ended. */
  const publicRecord = async (extractOption?: string) => {
    let call = suite.catalogue.http().post('/api/records/').set(suite.auth).field('allowDuplicate', 'true');
    if (extractOption) call = call.field('extractOption', extractOption);
    const created = await call.attach('file', HL7, '001_ADT_A01.hl7');
    expect(created.status).toBe(201);
    expect((await suite.catalogue.http().put(`/api/records/${created.body.id}/`).set(suite.auth).send({ visibility: 'EV' })).status).toBe(200);
    return eventually(async () => {
      const details = await suite.catalogue.http().get(`/api/records/${created.body.id}`);
      expect(details.status).toBe(200);
      expect(details.body.extraction_status).toBe('done');
      return details.body as {
        id: string;
        access: string;
        FILES: Array<{ id: string; META: Record<string, unknown> & { FILE: { HEADERS: string[]; STATS: Record<string, { FORMATTED_VALS: string[] }> } } }>;
      };
    });
  };

  it('metadata (the default): anonymous visitors see headers and masks, no patient detail, in details and in events', async () => {
    const record = await publicRecord();
    expect(record.access).toBe('RE');
    expect(leaked(record)).toEqual([]);
    const { META } = record.FILES[0];
    expect(META.FILE.HEADERS).toContain('PID-5');
    const name = META.FILE.STATS[String(META.FILE.HEADERS.indexOf('PID-5'))];
    expect(name.FORMATTED_VALS[0]).toBe('XXXXXX^XXXXXX^X^XXX');
    // What search indexes (the record's words) carries no cell either.
    const events = await suite.catalogue.events(record.id);
    expect(leaked(events.map((e) => e.payload))).toEqual([]);
    // The owner sees the same: META is the masked one, the file itself is theirs to download.
    expect(leaked((await suite.catalogue.http().get(`/api/records/${record.id}`).set(suite.auth)).body)).toEqual([]);
  });

  it('metadata: statistics that name one patient (date of birth, SSN) are withheld from those who may not download, shown to the owner', async () => {
    const record = await publicRecord();
    const stats = (body: { FILES: Array<{ META: { FILE: { HEADERS: string[]; STATS: Record<string, Record<string, unknown>> } } }> }, header: string) => {
      const { FILE } = body.FILES[0].META;
      return FILE.STATS[String(FILE.HEADERS.indexOf(header))];
    };
    const DATE_OF_BIRTH = 19610615173619;
    const anonymous = (await suite.catalogue.http().get(`/api/records/${record.id}`)).body;
    expect(stats(anonymous, 'PID-7')).toMatchObject({ MIN: null, MAX: null, MEAN: null, STD: null, DICT: expect.objectContaining({ count: 1 }) });
    expect(JSON.stringify(anonymous)).not.toContain(String(DATE_OF_BIRTH));
    expect(JSON.stringify(anonymous)).not.toContain('444333333');
    const owners = (await suite.catalogue.http().get(`/api/records/${record.id}`).set(suite.auth)).body;
    expect(stats(owners, 'PID-7')).toMatchObject({ MIN: DATE_OF_BIRTH, MAX: DATE_OF_BIRTH });
  });

  it('META stored before the rule (raw cells in the database) is masked when read', async () => {
    const record = await publicRecord();
    const raw = await extractMetadata(
      { stream: (await import('node:stream')).Readable.from([HL7]), fileName: '001_ADT_A01.hl7' },
      { extractOption: 'metadata', cellValues: 'raw' },
    );
    expect(leaked(raw).length).toBeGreaterThan(0);
    await suite.catalogue.sql('UPDATE catalogue.files SET meta = $2::jsonb WHERE id = $1', [record.FILES[0].id, JSON.stringify(raw)]);
    const anonymous = await suite.catalogue.http().get(`/api/records/${record.id}`);
    expect(anonymous.status).toBe(200);
    expect(leaked(anonymous.body)).toEqual([]);
  });

  it('samples: the owner chose to show real rows, so they are shown', async () => {
    const record = await publicRecord('samples');
    expect(leaked(record)).toEqual(expect.arrayContaining(['DOGCOW']));
  });
});
