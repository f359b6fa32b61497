import { createHash, createHmac, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { clkEncoder } from '@dc/extraction';
import { listAll, ObjectStorage, SignedLinkSigner } from '@dc/storage';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { Caller, caller, CatalogueTestApp, DATASETS, TEST_JWT_SECRET } from '../../testing/catalogue-test-app';

const dataset = (name: string) => path.join(DATASETS, name);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const MAX_UPLOAD_BYTES = 100_000;
const CO2 = dataset('csv/co2-annmean-gl.csv'); // 821 bytes
const CO2_MLO = dataset('csv/co2-annmean-mlo.csv'); // 1,161 bytes
const SP500 = dataset('csv/sp500-constituents.csv'); // 53,633 bytes
const UNEMPLOYMENT = dataset('csv/unemployment.tsv'); // 34,739 bytes
const COLORADO = dataset('txt/Colorado_SOTS.txt'); // 33,172 bytes
const GDP = dataset('csv/gdp.csv'); // 576,746 bytes: over the limit on its own

const orgA = randomUUID();
const orgB = randomUUID();
const orgC = randomUUID();
const owner = caller('owner', orgA, [3]);
const member = caller('member', orgA, [3]);
const admin = caller('admin', orgA, [2]);
const outsider = caller('outsider', orgB, [1, 2, 3]);
const friend = caller('friend', orgC, [1, 2, 3]);
const basic = caller('basic', orgC, [3], 'BASIC');
const everyone = [owner, member, admin, outsider, friend, basic];

describeInfra('catalogue records API (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let storage: ObjectStorage;
  const headers = new Map<Caller, { Authorization: string }>();

  const http = () => catalogue.http();
  const as = (who: Caller) => headers.get(who)!;
  const upload = (who: Caller, files: string[], fields: Record<string, string> = {}) => {
    let call = http().post('/api/records/').set(as(who));
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    for (const file of files) call = call.attach('file', file);
    return call;
  };
  const outbox = (key: string) => catalogue.events(key);
  const counts = async () => {
    const [row] = await catalogue.sql<{ records: number; files: number }>(
      'SELECT (SELECT count(*) FROM catalogue.records)::int AS records, (SELECT count(*) FROM catalogue.files)::int AS files',
    );
    return { ...row, objects: (await listAll(storage, 'catalogue/')).length };
  };
  /** Every file under the storage root, temporary ones included. */
  const filesOnDisk = (dir = path.join(catalogue.dataDir, 'files')): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOnDisk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue');
    catalogue = await CatalogueTestApp.start(db.url, { maxUploadBytes: MAX_UPLOAD_BYTES });
    storage = catalogue.app.get(ObjectStorage);
    for (const who of everyone) headers.set(who, await catalogue.auth(who));
    // The directory projection is fed by identity's events, as in production.
    await catalogue.feedDirectory(everyone, { [orgA]: 'Acme', [orgB]: 'Blue', [orgC]: 'Cyan' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  describe('POST /api/records/', () => {
    it('streams a real file to storage and answers 201 with the full record, Working until extraction ends', async () => {
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
      const stored = await storage.get(`catalogue/files/${record.FILES[0].id}`);
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
      const rows = await catalogue.sql<{ extract_option: string }>('SELECT extract_option FROM catalogue.records WHERE id = $1', [response.body.id]);
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
      const server = createServer(catalogue.app.getHttpAdapter().getInstance()).listen(0, '127.0.0.1');
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

    describe('private columns (encryptList, formatList, summaryList)', () => {
      /** The owner's linkage key (docs/private-linkage.md) and a value's hash, computed here without the service's code. */
      const linkageKey = Buffer.alloc(32, 11).toString('base64url');
      const hashOf = (value: string) => createHmac('sha256', Buffer.from(linkageKey, 'base64url')).update(value).digest('hex').slice(0, 32);
      // These two files have no quoted line breaks: a split on commas outside quotes reads them.
      const rowsOf = (file: string) =>
        readFileSync(file, 'utf8')
          .trim()
          .split(/\r?\n/)
          .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((cell) => cell.replace(/^"|"$/g, '')));
      const stringsOf = (node: unknown): string[] =>
        typeof node === 'string'
          ? [node]
          : Array.isArray(node)
            ? node.flatMap(stringsOf)
            : node && typeof node === 'object'
              ? Object.values(node).flatMap(stringsOf)
              : [];
      const extracted = (who: Caller, id: string) =>
        eventually(async () => {
          const details = await http().get(`/api/records/${id}`).set(as(who));
          expect(details.body.extraction_status).toBe('done');
          return details.body;
        });

      it('hashes, masks and excludes columns: META, the record and its events hold no raw value of them', async () => {
        const [header, ...rows] = rowsOf(SP500);
        const response = await upload(owner, [SP500], {
          allowDuplicate: 'true',
          extractOption: 'samples',
          encryptList: JSON.stringify(['symbol', 6]),
          linkageKey,
          formatList: JSON.stringify([
            { column: 'Security', format: 'mask' },
            { column: 'Headquarters Location', format: 'exclude' },
          ]),
          summaryList: JSON.stringify(['Founded']),
        });
        expect(response.status).toBe(201);
        const record = await extracted(owner, response.body.id);
        const meta = record.FILES[0].META;
        expect(meta.FILE.HEADERS).toEqual(header.filter((h) => h !== 'Headquarters Location'));
        expect(meta.ENCRYPTED_COLS).toEqual(['Symbol', 'CIK']);
        expect(record.enc_headers).toEqual(['Symbol', 'CIK']);
        const cik = meta.FILE.HEADERS.indexOf('CIK');
        expect(meta.SHARE_FORMATS).toEqual(
          meta.FILE.HEADERS.map((h: string, index: number) => ({ index, format: h === 'Security' ? 'mask' : 'plain', hash: h === 'Symbol' || h === 'CIK' })),
        );
        expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(rows.slice(0, 5).map((r) => hashOf(r[0])));
        expect(meta.FILE.STATS[String(cik)]).toMatchObject({ MIN: null, MAX: null, WORDSET: [], FORMATTED_VALS: rows.slice(0, 5).map((r) => hashOf(r[6])) });

        const secret = new Set(rows.flatMap((r) => [r[0], r[1], r[4], r[6]]));
        const shown = [...stringsOf(record), ...stringsOf(await outbox(record.id)), ...stringsOf(await outbox(record.FILES[0].id))];
        expect(shown.filter((text) => secret.has(text))).toEqual([]);
        const joined = shown.join('\n');
        expect([...secret].filter((value) => value.length >= 6 && joined.includes(value))).toEqual([]);
        const updated = (await outbox(record.id)).at(-1)!;
        expect(updated.payload).toMatchObject({ encryptedHeaders: ['Symbol', 'CIK'], headers: meta.FILE.HEADERS });
        expect((await outbox(record.FILES[0].id))[0].payload).toMatchObject({ encryptedHeaders: ['Symbol', 'CIK'] });
      });

      it('hashes equal values equally across records and organisations (linkable), by position or name', async () => {
        const rows = rowsOf(CO2).slice(1);
        const years = rows.map((r) => r[0]);
        // Two organisations that agreed on one linkage key.
        const mine = await upload(owner, [CO2], { allowDuplicate: 'true', encryptList: '[0]', linkageKey });
        const theirs = await upload(outsider, [CO2], { allowDuplicate: 'true', encryptList: '["YEAR"]', linkageKey, formatList: '{"Uncertainty": "mask"}' });
        expect([mine.status, theirs.status]).toEqual([201, 201]);
        const [a, b] = [await extracted(owner, mine.body.id), await extracted(outsider, theirs.body.id)];
        expect(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS).toEqual(years.slice(0, 5).map(hashOf));
        expect(b.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS).toEqual(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS);
        expect(b.FILES[0].META.FILE.STATS['2']).toMatchObject({ MIN: null, MAX: null, FORMATTED_VALS: rows.slice(0, 5).map((r) => r[2].replace(/\d/g, '9')) });
        expect(b.FILES[0].META.SHARE_FORMATS).toEqual([
          { index: 0, format: 'plain', hash: true },
          { index: 1, format: 'plain', hash: false },
          { index: 2, format: 'mask', hash: false },
        ]);
        expect(b.FILES[0].META.LINKAGE_KEY_ID).toBe(a.FILES[0].META.LINKAGE_KEY_ID);
        // The key was needed for the extraction only: nothing of it is left in the database.
        const stored = await catalogue.sql<{ private_columns: Record<string, unknown> }>('SELECT private_columns FROM catalogue.records WHERE id = ANY($1)', [
          [mine.body.id, theirs.body.id],
        ]);
        for (const row of stored) expect(Object.keys(row.private_columns).sort()).toEqual(['formats', 'hash', 'linkageKeyId', 'prehashed', 'summary']);
        expect(JSON.stringify(await catalogue.sql('SELECT * FROM catalogue.records'))).not.toContain(linkageKey);
        // Under another key the same values hash differently: guessing needs the key.
        const stranger = await upload(friend, [CO2], { allowDuplicate: 'true', encryptList: '[0]', linkageKey: Buffer.alloc(32, 12).toString('base64url') });
        const c = await extracted(friend, stranger.body.id);
        expect(c.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS[0]).not.toBe(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS[0]);
        expect(c.FILES[0].META.LINKAGE_KEY_ID).not.toBe(a.FILES[0].META.LINKAGE_KEY_ID);
      });

      it('hashes fuzzyList columns as CLKs (fuzzy linkage): META lists them in CLK_COLS, the sketch marks them, no name shows', async () => {
        const [, ...rows] = rowsOf(SP500);
        const response = await upload(owner, [SP500], {
          allowDuplicate: 'true',
          extractOption: 'samples',
          encryptList: '["Security", "Symbol"]',
          fuzzyList: '["security"]',
          linkageKey,
        });
        expect(response.status).toBe(201);
        const record = await extracted(owner, response.body.id);
        const meta = record.FILES[0].META;
        expect([meta.ENCRYPTED_COLS, meta.CLK_COLS]).toEqual([['Symbol', 'Security'], ['Security']]);
        const clk = clkEncoder(new Uint8Array(Buffer.from(linkageKey, 'base64url')));
        expect(meta.FILE.STATS['1'].FORMATTED_VALS.map((v: string) => v.slice(0, 60))).toEqual(rows.slice(0, 5).map((r) => clk(r[1]).slice(0, 60)));
        expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(rows.slice(0, 5).map((r) => hashOf(r[0])));
        const sketched = (await outbox(record.FILES[0].id)).find((e) => e.type === 'file.sketched')!;
        expect((sketched.payload as { tables: Array<{ columns: unknown[] }> }).tables[0].columns[1]).toMatchObject({
          header: 'Security',
          privacy: 'hashed',
          encoding: 'clk',
          linkageKeyId: meta.LINKAGE_KEY_ID,
        });
        const names = new Set(rows.map((r) => r[1]).filter((name) => name.length >= 6));
        const joined = [...stringsOf(record), ...stringsOf(await outbox(record.id)), ...stringsOf(await outbox(record.FILES[0].id))].join('\n');
        expect([...names].filter((name) => joined.includes(name))).toEqual([]);
      });

      it('reports choices that match no column in META.ERRORS; without choices META has no private-column fields', async () => {
        const missing = await upload(owner, [CO2_MLO], { allowDuplicate: 'true', encryptList: '["Station"]', linkageKey });
        const plain = await upload(owner, [CO2_MLO], { allowDuplicate: 'true', formatList: '[]', encryptList: '' });
        const [a, b] = [await extracted(owner, missing.body.id), await extracted(owner, plain.body.id)];
        expect(a.FILES[0].META.ERRORS).toEqual(['Private columns: this file has no column named "Station"']);
        expect(a.enc_headers).toEqual([]);
        expect(b.FILES[0].META).not.toHaveProperty('SHARE_FORMATS');
        expect(b.enc_headers).toEqual([]);
      });

      it('answers 400 with field errors for malformed choices, and stores nothing', async () => {
        const before = await counts();
        const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
          [{ encryptList: '{oops' }, { encryptList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'] }],
          [
            { encryptList: '[-1, 2.5]', summaryList: '"Name"' },
            {
              encryptList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'],
              summaryList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'],
            },
          ],
          [{ formatList: '[{"column": "Name", "format": "blur"}]' }, { formatList: ['Column "Name": the format must be exclude, mask or plain.'] }],
          [
            { formatList: '[{"format": "mask"}]' },
            {
              formatList: [
                'Must be a JSON list of {"column": position or header name, "format": "exclude", "mask" or "plain"}, or a JSON object of header name to format.',
              ],
            },
          ],
          [{ formatList: '{"Name": "mask", "name": "plain"}' }, { formatList: ['Column "name" has two formats (mask and plain).'] }],
          [
            { encryptList: '["Email", 3]', linkageKey, formatList: '[{"column": 3, "format": "exclude"}]' },
            { encryptList: ['Column 3 is excluded: it cannot also be hashed.'] },
          ],
          [{ encryptList: '["Year"]' }, { linkageKey: ['Give your linkage key to hash columns.'] }],
          [{ encryptList: '["Year"]', linkageKey: 'not-a-key' }, { linkageKey: ['Must be a linkage key: 32 bytes in base64url (43 characters).'] }],
          [{ hashedList: '["Year"]' }, { linkageKeyId: ['Give the id of the linkage key the columns were hashed with.'] }],
          [{ encryptList: '["Year"]', linkageKey, fuzzyList: '["Mean"]' }, { fuzzyList: ['Column "Mean" is not hashed: only hashed columns can be fuzzy.'] }],
        ];
        for (const [fields, errors] of cases) {
          const response = await upload(owner, [CO2], { allowDuplicate: 'true', ...fields });
          expect([response.status, response.body]).toEqual([400, errors]);
        }
        expect(await counts()).toEqual(before);
      });
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

  describe('who sees, edits, deletes and downloads a record', () => {
    let record: { id: string; visibilitymodel_set: Array<{ id: string }>; FILES: Array<{ id: string }> };
    const get = (caller: Caller | null, id = record.id) => (caller ? http().get(`/api/records/${id}`).set(as(caller)) : http().get(`/api/records/${id}`));

    beforeAll(async () => {
      const response = await upload(owner, [UNEMPLOYMENT], { name: 'Unemployment by county', allowDuplicate: 'true' });
      expect(response.status).toBe(201);
      record = response.body;
    });

    it('PR: the owner and their organisation see it; others get the same 404 as for an unknown id', async () => {
      for (const caller of [owner, member, admin]) expect((await get(caller)).status).toBe(200);
      expect((await get(member)).body).toMatchObject({ is_owner: false, edit: false, visibilitymodel_set: [], download_url: null });
      expect((await get(admin)).body).toMatchObject({ is_owner: false, edit: true, download_url: `/api/records/${record.id}/download/` });
      const unknown = await get(owner, randomUUID());
      expect(unknown.status).toBe(404);
      for (const caller of [outsider, friend, basic, null]) {
        const response = await get(caller);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(unknown.body);
      }
      expect((await get(owner, 'not-a-uuid')).status).toBe(404);
    });

    it('CU: adds the listed users and organisations, with their names; EV: everyone, anonymous included', async () => {
      const visibilityId = record.visibilitymodel_set[0].id;
      const shared = await http()
        .put(`/api/visibilities/${visibilityId}/`)
        .set(as(owner))
        .send({ visibility_selection: 'CU', users_with_visibility: [{ id: friend.id, name: 'ignored' }], organisations_with_visibility: [] });
      expect(shared.status).toBe(200);
      expect(shared.body).toEqual({
        id: visibilityId,
        visibility_selection: 'CU',
        users_with_visibility: [{ id: friend.id, name: 'friend' }],
        organisations_with_visibility: [],
        visibility_options: [
          ['Private', 'PR'],
          ['Everyone', 'EV'],
          ['Custom', 'CU'],
        ],
        scope: 'RE',
        associated_record: record.id,
      });
      expect((await get(friend)).status).toBe(200);
      expect((await get(friend)).body.visibilitymodel_set).toEqual([]);
      for (const caller of [outsider, basic, null]) expect((await get(caller)).status).toBe(404);

      const byOrganisation = await http()
        .post('/api/visibilities/')
        .set(as(admin))
        .send({ visibility_selection: 'CU', organisations_with_visibility: [orgB], associated_record: record.id });
      expect(byOrganisation.status).toBe(201);
      expect(byOrganisation.body.organisations_with_visibility).toEqual([{ id: orgB, name: 'Blue' }]);
      expect((await get(outsider)).status).toBe(200);
      expect((await get(friend)).status).toBe(404);

      const unknownUser = await http()
        .put(`/api/visibilities/${visibilityId}/`)
        .set(as(owner))
        .send({ visibility_selection: 'CU', users_with_visibility: ['nobody'] });
      expect(unknownUser.status).toBe(400);
      expect(unknownUser.body).toEqual({ users_with_visibility: ['Unknown user(s): nobody.'] });
      const hidden = await http().post('/api/visibilities/').set(as(friend)).send({ visibility_selection: 'EV', associated_record: record.id });
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({ associated_record: [`Invalid pk "${record.id}" - object does not exist.`] });
      expect((await http().post('/api/visibilities/').set(as(member)).send({ visibility_selection: 'EV', associated_record: record.id })).status).toBe(403);

      expect((await http().get(`/api/visibilities/?associated_record=${record.id}`).set(as(owner))).body).toMatchObject({
        count: 1,
        next: null,
        previous: null,
        results: [{ id: visibilityId, visibility_selection: 'CU' }],
      });
      expect((await http().get(`/api/visibilities/?associated_record=${record.id}`).set(as(member))).body).toMatchObject({ count: 0, results: [] });
      // A page number past any integer PostgreSQL takes is an empty page, not a 500 (found by the route fuzz).
      const farAway = await http()
        .get(`/api/visibilities/?page=${'9'.repeat(180)}&page_size=1e309`)
        .set(as(owner));
      expect(farAway.status).toBe(200);
      expect(farAway.body).toMatchObject({ results: [] });

      const everyone = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'EV' });
      expect(everyone.status).toBe(200);
      expect(everyone.body.visibilitymodel_set[0]).toMatchObject({ visibility_selection: 'EV', organisations_with_visibility: [] });
      for (const caller of [outsider, friend, basic, null]) {
        const response = await get(caller);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ is_owner: false, edit: false, visibilitymodel_set: [] });
      }
      const events = await outbox(record.id);
      expect(events.at(-1)).toMatchObject({ type: 'record.updated', payload: { visibility: 'EV', sharedWithUserIds: [], sharedWithOrganisationIds: [] } });
      expect(events.find((e) => (e.payload as { visibility: string }).visibility === 'CU')?.payload).toMatchObject({ sharedWithUserIds: [friend.id] });
    });

    it('PUT: the owner and Data Admins edit; members get 403, strangers 404 (or 403 once they may see it)', async () => {
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'PR' });
      expect((await http().put(`/api/records/${record.id}/`).set(as(member)).send({ name: 'Mine now' })).status).toBe(403);
      expect((await http().put(`/api/records/${record.id}/`).set(as(outsider)).send({ name: 'Mine now' })).status).toBe(404);
      const invalid = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ name: '', access: 'maybe' });
      expect(invalid.status).toBe(400);
      expect(Object.keys(invalid.body).sort()).toEqual(['access', 'name']);

      const before = (await get(owner)).body;
      const edited = await http()
        .put(`/api/records/${record.id}`)
        .set(as(admin))
        .send({
          record: { name: 'County unemployment', description: 'BLS 2009', RECORD: { Year: 2009 } },
          access: 'OP',
          accessFee: '3',
          currency: 'EUR',
          groups: [],
        });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        name: 'County unemployment',
        description: 'BLS 2009',
        RECORD: { Year: '2009' },
        access: 'OP',
        accessFee: 3,
        currency: 'EUR',
        version: before.version + 1,
        edit: true,
        is_owner: false,
      });
      expect(Date.parse(edited.body.date_changed)).toBeGreaterThan(Date.parse(before.date_changed));
      const cleared = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ accessFee: null, access: 'RE' });
      expect(cleared.body).toMatchObject({ accessFee: null, fee: { fixed_fee: null, currency: 'EUR' }, access: 'RE', version: before.version + 2 });
      const unchanged = await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ access: 'RE' });
      expect(unchanged.body.version).toBe(before.version + 2);
      const updated = (await outbox(record.id)).filter((e) => e.type === 'record.updated').at(-1)!;
      expect(updated.payload).toMatchObject({ name: 'County unemployment', access: 'RE', accessFee: null, version: before.version + 2 });
    });

    it('PUT /api/files/{id}/ renames a file for those who may edit', async () => {
      const fileId = record.FILES[0].id;
      expect((await http().put(`/api/files/${fileId}/`).set(as(member)).send({ name: 'x.tsv' })).status).toBe(403);
      expect((await http().put(`/api/files/${fileId}/`).set(as(outsider)).send({ name: 'x.tsv' })).status).toBe(404);
      expect((await http().put(`/api/files/${fileId}/`).set(as(owner)).send({ name: '' })).body).toEqual({ name: ['This field may not be blank.'] });
      const renamed = await http().put(`/api/files/${fileId}/`).set(as(owner)).send({ name: 'unemployment-2009.tsv' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: fileId, name: 'unemployment-2009.tsv', size: 34_739 });
      expect((await get(owner)).body.FILES[0].name).toBe('unemployment-2009.tsv');
    });

    it('download: a 5-minute signed link for the owner and Data Admins (RE), anyone who sees it when OP; 403 or 404 otherwise', async () => {
      const link = (caller: Caller | null) =>
        caller ? http().get(`/api/records/${record.id}/download/`).set(as(caller)) : http().get(`/api/records/${record.id}/download/`);
      const granted = await link(owner);
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({
        url: expect.stringContaining('/api/files/download?token='),
        expires_in: 300,
        file: { id: record.FILES[0].id, name: 'unemployment-2009.tsv' },
      });
      expect((await link(admin)).status).toBe(200);
      expect((await link(member)).status).toBe(403);
      expect((await link(member)).body).toEqual({ detail: 'You may not download this data. Request access to it first.' });
      expect((await link(outsider)).status).toBe(404);
      expect((await link(null)).status).toBe(404);

      const url = new URL(granted.body.url);
      const file = await http()
        .get(`${url.pathname}${url.search}`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(file.status).toBe(200);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="unemployment-2009.tsv"; filename*=UTF-8''unemployment-2009.tsv`);
      expect((file.body as Buffer).equals(readFileSync(UNEMPLOYMENT))).toBe(true);

      const token = url.searchParams.get('token')!;
      const key = createHmac('sha256', TEST_JWT_SECRET).update('signed-download-links').digest();
      const expired = new SignedLinkSigner(key, { now: () => Date.now() - 10 * 60_000 }).sign(`catalogue/files/${record.FILES[0].id}`, {
        expiresInSeconds: 300,
      });
      const forged = new SignedLinkSigner(Buffer.alloc(32, 1)).sign(`catalogue/files/${record.FILES[0].id}`, { expiresInSeconds: 300 });
      for (const bad of [expired, forged, `${token}x`, '']) {
        const refused = await http().get(`/api/files/download?token=${encodeURIComponent(bad)}`);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ detail: 'This download link is invalid or has expired.' });
      }

      // Open access: whoever may see the record may download it, anonymous visitors of EV records too.
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ access: 'OP' });
      expect((await link(member)).status).toBe(200);
      expect((await link(outsider)).status).toBe(404);
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'EV' });
      expect((await link(null)).status).toBe(200);
      expect((await get(null)).body.download_url).toBe(`/api/records/${record.id}/download/`);

      const metadataOnly = await upload(owner, [], { name: 'No data here', access: 'OP' });
      const none = await http().get(`/api/records/${metadataOnly.body.id}/download/`).set(as(owner));
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ detail: 'This record has no stored file to download.' });
    });

    it('DELETE: members 403, strangers 404; the owner removes the record, its files and objects, and record.deleted is published', async () => {
      await http().put(`/api/records/${record.id}/`).set(as(owner)).send({ visibility: 'PR' });
      const key = `catalogue/files/${record.FILES[0].id}`;
      expect(await storage.exists(key)).toBe(true);
      expect((await http().delete(`/api/records/${record.id}/`).set(as(member))).status).toBe(403);
      expect((await http().delete(`/api/records/${record.id}/`).set(as(outsider))).status).toBe(404);
      const deleted = await http().delete(`/api/records/${record.id}/`).set(as(owner));
      expect(deleted.status).toBe(204);
      expect(await storage.exists(key)).toBe(false);
      expect((await get(owner)).status).toBe(404);
      expect(await catalogue.sql('SELECT id FROM catalogue.files WHERE record_id = $1', [record.id])).toEqual([]);
      expect((await outbox(record.id)).at(-1)).toMatchObject({
        type: 'record.deleted',
        payload: { recordId: record.id, ownerId: owner.id, organisationId: orgA },
      });
      expect((await http().delete(`/api/records/${record.id}/`).set(as(owner))).status).toBe(404);
    });

    it('DELETE by a Data Admin of the organisation', async () => {
      const created = await upload(member, [], { name: 'Member record' });
      expect((await http().delete(`/api/records/${created.body.id}`).set(as(admin))).status).toBe(204);
    });
  });

  it('GET /api/accessoptions/ lists [label, code] pairs, for anonymous callers too', async () => {
    const response = await http().get('/api/accessoptions');
    expect(response.status).toBe(200);
    expect(response.body.visibility_options).toEqual([
      ['Private', 'PR'],
      ['Everyone', 'EV'],
      ['Custom', 'CU'],
    ]);
    expect(response.body.access_options).toEqual([
      ['Request', 'RE'],
      ['Open', 'OP'],
    ]);
    expect(response.body.currency_options[0]).toEqual(['Canadian Dollar', 'CAD']);
  });
});
