import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describeInfra } from '@dc/testing';
import { DATASETS } from '../../testing/catalogue-test-app';
import { basic, outsider, owner, useRecordsApi } from '../../testing/records-api.fixture';

const dataset = (name: string) => path.join(DATASETS, name);
const CO2 = dataset('csv/co2-annmean-gl.csv');
const CO2_MLO = dataset('csv/co2-annmean-mlo.csv');
const UNEMPLOYMENT = dataset('csv/unemployment.tsv');

/** The upload form's choices beyond the spec: who sees the new records, and a name and description per file. */
describeInfra('catalogue records API: visibility and per-file details on upload (real PostgreSQL, fs storage)', true, () => {
  const api = useRecordsApi({ maxUploadBytes: 200_000 });
  const { http, as, upload, counts } = api;
  const filesOnDisk = (dir = path.join(api.catalogue.dataDir, 'files')): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOnDisk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    } catch {
      return [];
    }
  };
  const stored = async (id: string) =>
    (await api.catalogue.sql<{ visibility: string; access: string }>('SELECT visibility, access FROM catalogue.records WHERE id = $1', [id]))[0];

  it('keeps Private and Request by default, as a client of the spec gets them', async () => {
    const response = await upload(owner, [], { name: 'Default terms' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ visibility: 'PR', access: 'RE' });
    expect(await stored(response.body.id)).toEqual({ visibility: 'PR', access: 'RE' });
    expect((await http().get(`/api/records/${response.body.id}/`)).status).not.toBe(200);
  });

  it('makes records visible to everyone (anonymous visitors included) and open when asked, by code or label', async () => {
    const response = await upload(owner, [CO2], { visibility: 'EV', access: 'OP' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ visibility: 'EV', access: 'OP' });
    expect(await stored(response.body.id)).toEqual({ visibility: 'EV', access: 'OP' });
    const anonymous = await http().get(`/api/records/${response.body.id}/`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ id: response.body.id, visibility: 'EV' });
    expect((await http().get(`/api/records/${response.body.id}/`).set(as(outsider))).status).toBe(200);
    const byLabel = await upload(owner, [], { name: 'By label', visibility: 'private' });
    expect(byLabel.status).toBe(201);
    expect(byLabel.body.visibility).toBe('PR');
  });

  it('refuses Custom and unknown visibilities with a 400 in the spec shape, and stores nothing', async () => {
    const before = await counts();
    const disk = filesOnDisk().length;
    const custom = await upload(owner, [CO2_MLO], { visibility: 'CU' });
    expect(custom.status).toBe(400);
    expect(custom.body).toEqual({
      visibility: ['Custom visibility needs the organisations and users who may see the record: create the record, then choose them with Edit.'],
    });
    const unknown = await upload(owner, [CO2_MLO], { visibility: 'friends' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ visibility: ['"visibility" must be PR (Private) or EV (Everyone).'] });
    expect(await counts()).toEqual(before);
    expect(filesOnDisk().length).toBe(disk);
  });

  it("keeps a BASIC account's records visible to everyone: EV is taken, anything else refused with the plan's reason", async () => {
    const before = await counts();
    const refused = await upload(basic, [CO2_MLO], { visibility: 'PR' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ visibility: ['On your plan records are visible to everyone (EV). Upgrade to choose who sees them.'] });
    expect(await counts()).toEqual(before);
    const taken = await upload(basic, [], { name: 'Basic, said so', visibility: 'EV', access: 'OP' });
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ visibility: 'EV', access: 'OP' });
  });

  it('names and describes each file of a multi-file upload, falling back to the form and the file name', async () => {
    const response = await upload(owner, [CO2, CO2_MLO, UNEMPLOYMENT], {
      allowDuplicate: 'true',
      description: 'Shared description',
      fileDetails: JSON.stringify([
        { name: '  Global CO2, annual mean ', description: 'Global average since 1980' },
        { name: '', description: '' },
        { description: 'Monthly unemployment rates' },
      ]),
    });
    expect(response.status).toBe(201);
    expect(response.body.map((r: { name: string; alt_name: string; description: string }) => [r.name, r.alt_name, r.description])).toEqual([
      ['Global CO2, annual mean', 'co2-annmean-gl.csv', 'Global average since 1980'],
      ['co2-annmean-mlo.csv', '', 'Shared description'],
      ['unemployment.tsv', '', 'Monthly unemployment rates'],
    ]);
    const rows = await api.catalogue.sql<{ name: string; description: string }>(
      'SELECT name, description FROM catalogue.records WHERE id = ANY($1) ORDER BY name',
      [response.body.map((r: { id: string }) => r.id)],
    );
    expect(rows.map((r) => r.description).sort()).toEqual(['Global average since 1980', 'Monthly unemployment rates', 'Shared description']);
  });

  it('refuses per-file details that do not fit the upload, naming the file, and stores nothing', async () => {
    const before = await counts();
    const disk = filesOnDisk().length;
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ fileDetails: '{oops' }, ['fileDetails must be a JSON list with one {"name", "description"} object per file, in the order the files are sent.']],
      [{ fileDetails: JSON.stringify([{ name: 'Only one' }]) }, ['Send one entry per uploaded file: 2 files were sent, with 1 entry.']],
      [
        { fileDetails: JSON.stringify([{ name: 'A' }, { name: 'B' }]), saveSeparately: 'false', name: 'Together' },
        ['Names and descriptions per file need saveSeparately=true (one record per file).'],
      ],
      [
        { fileDetails: JSON.stringify([{ name: 'x'.repeat(256) }, { title: 'B', description: 7 }]) },
        [
          'File 1: name: Ensure this field has no more than 255 characters.',
          'File 2: only "name" and "description" are taken, not "title".',
          'File 2: description: Not a valid string.',
        ],
      ],
    ];
    for (const [fields, messages] of cases) {
      const response = await upload(owner, [CO2, CO2_MLO], { allowDuplicate: 'true', ...fields });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ fileDetails: messages });
    }
    expect(await counts()).toEqual(before);
    expect(filesOnDisk().length).toBe(disk);
  });
});
