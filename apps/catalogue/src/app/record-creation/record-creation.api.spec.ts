import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describeInfra, eventually } from '@dc/testing';
import { DATASETS } from '../../testing/catalogue-test-app';
import { basic, member, orgA, outsider, owner, useRecordsApi } from '../../testing/records-api.fixture';

const dataset = (name: string) => path.join(DATASETS, name);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const MAX_UPLOAD_BYTES = 100_000;
const CO2 = dataset('csv/co2-annmean-gl.csv'); // 821 bytes
const CO2_MLO = dataset('csv/co2-annmean-mlo.csv'); // 1,161 bytes
const SP500 = dataset('csv/sp500-constituents.csv'); // 53,633 bytes
const UNEMPLOYMENT = dataset('csv/unemployment.tsv'); // 34,739 bytes
const COLORADO = dataset('txt/Colorado_SOTS.txt'); // 33,172 bytes
const GDP = dataset('csv/gdp.csv'); // 576,746 bytes: over the limit on its own

describeInfra('catalogue records API: creation (real PostgreSQL, fs storage)', true, () => {
  const api = useRecordsApi({ maxUploadBytes: MAX_UPLOAD_BYTES });
  const { http, as, upload, outbox, counts } = api;
  /** Every file under the storage root, temporary ones included. */
  const filesOnDisk = (dir = path.join(api.catalogue.dataDir, 'files')): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOnDisk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    } catch {
      return [];
    }
  };

  describe('POST /api/records/', () => {
    it('streams a real file to api.storage and answers 201 with the full record, Working until extraction ends', async () => {
      const response = await upload(owner, [CO2]);
      expect(response.status).toBe(201);
      const record = response.body;
      expect(record).toMatchObject({
        name: 'co2-annmean-gl.csv',
        alt_name: '',
        user: 'owner',
        organisation: { id: orgA, name: 'Acme' },
        origin: 'upload',
        type: 'csv',
        size: 821,
        version: 1,
        visibility: 'PR',
        access: 'RE',
        currency: 'CAD',
        accessFee: null,
        fee: { fixed_fee: null, currency: 'CAD' },
        policy: null,
        policy_name: null,
        is_owner: true,
        edit: true,
        request_status: null,
        groups: [],
        top_related: [],
        RECORD: {},
        download_url: `/api/records/${record.id}/download/`,
        access_options: [
          ['Request', 'RE'],
          ['Open', 'OP'],
        ],
        visibility_options: [
          ['Private', 'PR'],
          ['Everyone', 'EV'],
          ['Custom', 'CU'],
        ],
      });
      expect(record.FILES).toEqual([
        expect.objectContaining({
          name: 'co2-annmean-gl.csv',
          content_type: 'text/csv',
          size: 821,
          checksum: sha256(CO2),
          META: null,
          extraction_status: 'pending',
        }),
      ]);
      expect(record.extraction_status).toBe('working');
      expect(record.visibilitymodel_set).toEqual([
        {
          id: expect.any(String),
          visibility_selection: 'PR',
          organisations_with_visibility: [],
          users_with_visibility: [],
          visibility_options: expect.any(Array),
          scope: 'RE',
          associated_record: record.id,
        },
      ]);
      const stored = await api.storage.get(`catalogue/files/${record.FILES[0].id}`);
      const chunks: Buffer[] = [];
      for await (const chunk of stored) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(readFileSync(CO2))).toBe(true);

      // Extraction runs in the background; META appears and the Working state ends.
      const extracted = await eventually(async () => {
        const details = await http().get(`/api/records/${record.id}`).set(as(owner));
        expect(details.body.FILES[0].META).not.toBeNull();
        return details.body;
      });
      expect(extracted.extraction_status).toBe('done');
      expect(extracted.FILES[0].META).toMatchObject({ NAME: 'co2-annmean-gl.csv', CONTENT_TYPE: 'text/csv', SIZE: 821 });
      const events = await outbox(record.id);
      expect(events.map((e) => e.type)).toEqual(['record.created', 'record.updated']);
      expect(events[0].payload).toMatchObject({
        recordId: record.id,
        name: 'co2-annmean-gl.csv',
        ownerId: owner.id,
        ownerUsername: 'owner',
        organisationId: orgA,
        organisationName: 'Acme',
        visibility: 'PR',
        access: 'RE',
        size: 821,
        files: [{ fileId: record.FILES[0].id, checksum: sha256(CO2), extractionStatus: 'pending' }],
      });
      expect((await outbox(record.FILES[0].id)).map((e) => [e.type, (e.payload as { recordId: string }).recordId])).toEqual([
        ['file.metadata-extracted', record.id],
        ['file.sketched', record.id],
      ]);
    });

    it('takes the form fields: name, description, custom fields, access terms, extract option', async () => {
      const response = await upload(owner, [CO2_MLO], {
        name: 'Mauna Loa CO2',
        description: 'Annual means',
        provenance: 'NOAA GML',
        source: 'https://gml.noaa.gov/ccgg/trends/',
        recordFields: JSON.stringify([
          { label: 'Station', value: 'MLO' },
          { label: 'Unit', value: 'ppm' },
        ]),
        access: 'OP',
        accessFee: '12.50',
        currency: 'usd',
        extractOption: 'minimal',
        deleteFile: 'false',
        extractFromURL: 'NO',
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        name: 'Mauna Loa CO2',
        alt_name: 'co2-annmean-mlo.csv',
        description: 'Annual means',
        provenance: 'NOAA GML',
        source: 'https://gml.noaa.gov/ccgg/trends/',
        RECORD: { Station: 'MLO', Unit: 'ppm' },
        record_fields: [
          { label: 'Station', value: 'MLO' },
          { label: 'Unit', value: 'ppm' },
        ],
        access: 'OP',
        accessFee: 12.5,
        currency: 'USD',
        fee: { fixed_fee: 12.5, currency: 'USD' },
      });
      const rows = await api.catalogue.sql<{ extract_option: string }>('SELECT extract_option FROM catalogue.records WHERE id = $1', [response.body.id]);
      expect(rows[0].extract_option).toBe('minimal');
    });

    it('answers field errors in the spec shape and stores nothing', async () => {
      const before = await counts();
      const response = await upload(owner, [CO2], {
        extractOption: 'everything',
        access: 'XX',
        accessFee: '-3',
        currency: 'ABC',
        source: 'not a url',
        recordFields: '{oops',
        allowDuplicate: 'maybe',
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['access', 'accessFee', 'allowDuplicate', 'currency', 'extractOption', 'recordFields', 'source']);
      expect(await counts()).toEqual(before);
    });

    it('makes one record per file by default, or one record with every file when saveSeparately is false', async () => {
      const separate = await upload(owner, [SP500, UNEMPLOYMENT], { allowDuplicate: 'true' });
      expect(separate.status).toBe(201);
      expect(separate.body.map((r: { name: string; FILES: unknown[] }) => [r.name, r.FILES.length])).toEqual([
        ['sp500-constituents.csv', 1],
        ['unemployment.tsv', 1],
      ]);
      const together = await upload(owner, [SP500, UNEMPLOYMENT], { allowDuplicate: 'true', saveSeparately: 'false', name: 'Two tables' });
      expect(together.status).toBe(201);
      expect(together.body).toMatchObject({ name: 'Two tables', type: 'csv, tsv', size: 53_633 + 34_739 });
      expect(together.body.FILES.map((f: { name: string }) => f.name)).toEqual(['sp500-constituents.csv', 'unemployment.tsv']);
    });

    it('needs a name for a record without files (multipart or JSON)', async () => {
      const nameless = await upload(owner, [], { description: 'nothing' });
      expect(nameless.status).toBe(400);
      expect(nameless.body).toEqual({ name: ['A name is required when no file is uploaded.'] });
      const named = await upload(owner, [], { name: 'Survey plan', recordFields: JSON.stringify([{ label: 'Wave', value: '3' }]) });
      expect(named.status).toBe(201);
      expect(named.body).toMatchObject({
        name: 'Survey plan',
        origin: 'metadata',
        type: 'metadata',
        size: 0,
        FILES: [],
        download_url: null,
        extraction_status: null,
        RECORD: { Wave: '3' },
      });
      const json = await http().post('/api/records').set(as(owner)).send({ name: 'From a script', access: 'OP', accessFee: 5 });
      expect(json.status).toBe(201);
      expect(json.body).toMatchObject({ name: 'From a script', access: 'OP', accessFee: 5, currency: 'CAD' });
    });

    it('refuses a duplicate within the organisation (naming the existing record) unless allowDuplicate=true', async () => {
      const first = await upload(owner, [COLORADO]);
      expect(first.status).toBe(201);
      const before = await counts();
      const again = await upload(member, [COLORADO]);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        file: [`"Colorado_SOTS.txt" is already indexed in the record "Colorado_SOTS.txt" (${first.body.id}). Send allowDuplicate=true to index it again.`],
      });
      expect(await counts()).toEqual(before);
      const inOneUpload = await upload(outsider, [CO2, CO2]);
      expect(inOneUpload.status).toBe(400);
      expect(inOneUpload.body.file[0]).toContain('has the same content as');

      // Another organisation may index the same file; allowDuplicate indexes it again in the same one.
      expect((await upload(outsider, [COLORADO])).status).toBe(201);
      const allowed = await upload(member, [COLORADO], { allowDuplicate: 'true' });
      expect(allowed.status).toBe(201);
      expect(allowed.body.FILES[0].checksum).toBe(first.body.FILES[0].checksum);
    });

    it('answers 413 past MAX_UPLOAD_BYTES and leaves nothing behind, even after earlier files were stored', async () => {
      const before = await counts();
      const diskBefore = filesOnDisk().length;
      const alone = await upload(owner, [GDP], { name: 'too big' });
      expect(alone.status).toBe(413);
      expect(alone.body).toEqual({ detail: `The upload is too large: files may total at most ${MAX_UPLOAD_BYTES} bytes.` });
      // 53,633 + 34,739 fit; the third file goes past the shared budget.
      const together = await upload(owner, [SP500, UNEMPLOYMENT, COLORADO], { allowDuplicate: 'true' });
      expect(together.status).toBe(413);
      expect(await counts()).toEqual(before);
      expect(filesOnDisk().length).toBe(diskBefore);
    });

    it('leaves nothing behind when the client goes away in the middle of a file', async () => {
      const before = await counts();
      const diskBefore = filesOnDisk().length;
      // A server of its own around the app's handler, so supertest's is left alone.
      const server = createServer(api.catalogue.app.getHttpAdapter().getInstance()).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const boundary = 'cut-off-boundary';
        const call = httpRequest({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/api/records/',
          headers: { ...as(owner), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '90000' },
        });
        call.on('error', () => undefined);
        call.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\nContent-Type: text/csv\r\n\r\n`);
        call.write(Buffer.alloc(40_000, 'a'));
        // The object is being written (a temporary file exists) when the connection drops.
        await eventually(async () => expect(filesOnDisk().length).toBeGreaterThan(diskBefore));
        call.destroy();
        await eventually(async () => expect(filesOnDisk().length).toBe(diskBefore));
        expect(await counts()).toEqual(before);
      } finally {
        server.close();
      }
    });

    it('keeps BASIC clients to visibility EV and refuses them access policies', async () => {
      const refused = await upload(basic, [], { name: 'Basic plan', policy: randomUUID() });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ policy: ['Access policies are not available on your plan. Upgrade to assign one.'] });
      const created = await upload(basic, [], { name: 'Basic plan' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ visibility: 'EV', visibility_options: [['Everyone', 'EV']] });
      const put = await http().put(`/api/records/${created.body.id}/`).set(as(basic)).send({ visibility: 'PR', policy: randomUUID() });
      expect(put.status).toBe(400);
      expect(Object.keys(put.body).sort()).toEqual(['policy', 'visibility']);
      const visibility = await http()
        .put(`/api/visibilities/${created.body.visibilitymodel_set[0].id}/`)
        .set(as(basic))
        .send({ visibility_selection: 'CU', users_with_visibility: [] });
      expect(visibility.status).toBe(400);
      expect(visibility.body).toEqual({ visibility_selection: ['On your plan records are visible to everyone (EV). Upgrade to choose who sees them.'] });
      expect((await http().get('/api/accessoptions/').set(as(basic))).body.visibility_options).toEqual([['Everyone', 'EV']]);
    });

    it("extractFromURL refuses, by default, a source on the server's own network (server-side request forgery)", async () => {
      const before = await counts();
      for (const source of ['http://127.0.0.1:8080/api/records/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/x.csv', 'http://localhost:5432/']) {
        const response = await upload(owner, [], { extractFromURL: 'YES', source });
        expect([source, response.status, response.body]).toEqual([
          source,
          400,
          { source: ['The source URL points to a local or private network address; it is not fetched.'] },
        ]);
      }
      expect(await counts()).toEqual(before);
    });

    it('requires a token', async () => {
      expect((await http().post('/api/records/').field('name', 'x')).status).toBe(401);
    });
  });
});
