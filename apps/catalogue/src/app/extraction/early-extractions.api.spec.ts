// Statistics while uploading (issue 26), on the catalogue wired as in production with every file
// counted as large (EXTRACTION_THREAD_MIN_BYTES=0): the worker stores META from the extraction made
// as the upload arrived, identical to what reading the stored file gives, and reads the file itself
// whenever that extraction was made with other choices or the upload did not end in a record.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { SketchCollector } from '@dc/extraction';
import { ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { EarlyExtractions } from './early-extractions';
import { MetadataExtractor } from './metadata-extractor';

const BANK = path.join(DATASETS, 'csv/bank-marketing.csv');
const SP500 = path.join(DATASETS, 'csv/sp500-constituents.csv');
const orgA = randomUUID();
const owner = caller('owner', orgA, [3]);

interface StoredFile {
  id: string;
  extraction_status: string;
  META: Record<string, unknown> & { EXTRACT_OPTION?: string; FILE?: { TOTAL_ROWS: number } };
}

/** META as stored, without its date (the time it was made). */
const withoutDate = ({ DATE: _date, ...meta }: Record<string, unknown>) => JSON.parse(JSON.stringify(meta)) as Record<string, unknown>;

describeInfra('extraction while uploading (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let sql: Client;
  let catalogue: CatalogueTestApp;
  let early: EarlyExtractions;
  /** Keys the worker read back from the object store. */
  let readBack: string[];

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_early_extraction');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    catalogue = await CatalogueTestApp.start(db.url, { env: { EXTRACTION_THREAD_MIN_BYTES: '0' } });
    await catalogue.feedDirectory([owner], { [orgA]: 'Acme' });
    early = catalogue.app.get(EarlyExtractions);
    const storage = catalogue.app.get(ObjectStorage);
    const get = storage.get.bind(storage);
    jest.spyOn(storage, 'get').mockImplementation((key: string) => {
      readBack.push(key);
      return get(key);
    });
  });

  beforeEach(() => (readBack = []));

  afterAll(async () => {
    jest.restoreAllMocks();
    await sql?.end();
    await catalogue?.close();
    await db?.drop();
  });

  const storedFile = async (recordId: string): Promise<StoredFile> => {
    const auth = catalogue.auth(owner);
    return eventually(async () => {
      const details = await catalogue.http().get(`/api/records/${recordId}`).set(auth);
      expect(details.body.FILES[0].extraction_status).toBe('done');
      return details.body.FILES[0] as StoredFile;
    });
  };

  /** The storage key of a file, as the records' table holds it. */
  const keyOf = async (fileId: string): Promise<string> =>
    (await sql.query<{ storage_key: string }>('SELECT storage_key FROM catalogue.files WHERE id = $1', [fileId])).rows[0].storage_key;

  it('stores the META made while the file arrived, the same as reading the stored file gives, without reading it back', async () => {
    const auth = catalogue.auth(owner);
    const response = await catalogue.http().post('/api/records/').set(auth).field('extractOption', 'metadata').attach('file', BANK);
    expect(response.status).toBe(201);
    const file = await storedFile(response.body.id);
    expect(readBack).not.toContain(await keyOf(file.id));
    expect(early.size).toBe(0);

    const sketches = new SketchCollector();
    const expected = await catalogue.app
      .get(MetadataExtractor)
      .extract(
        { stream: createReadStream(BANK), fileName: 'bank-marketing.csv', contentType: 'text/csv', size: statSync(BANK).size },
        { extractOption: 'metadata', sketches },
      );
    expect(withoutDate(file.META)).toEqual(withoutDate(expected));
    expect(file.META).toMatchObject({ SIZE: statSync(BANK).size, STATUS: 'complete' });
    const sketched = (await catalogue.events(file.id)).find((event) => event.type === 'file.sketched');
    expect((sketched?.payload as { tables: Array<{ totalRows: number }> }).tables[0].totalRows).toBe(sketches.tables[0].totalRows);
  });

  it('reads the file back when its extract option came after the file', async () => {
    const auth = catalogue.auth(owner);
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(auth)
      .attach('file', SP500)
      .field('extractOption', 'samples')
      .field('allowDuplicate', 'true');
    expect(response.status).toBe(201);
    const file = await storedFile(response.body.id);
    expect(readBack).toContain(await keyOf(file.id));
    expect(file.META).toMatchObject({ EXTRACT_OPTION: 'samples', STATUS: 'complete', FILE: { TOTAL_ROWS: 503 } });
    expect(early.size).toBe(0);
  });

  it('leaves a file with private columns to the worker', async () => {
    const auth = catalogue.auth(owner);
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(auth)
      .field('encryptList', '["Symbol"]')
      .field('linkageKey', Buffer.alloc(32, 7).toString('base64url'))
      .field('allowDuplicate', 'true')
      .attach('file', SP500);
    expect(response.status).toBe(201);
    const file = await storedFile(response.body.id);
    expect(readBack).toContain(await keyOf(file.id));
    expect(file.META).toMatchObject({ ENCRYPTED_COLS: ['Symbol'], STATUS: 'complete' });
    expect(early.size).toBe(0);
  });

  it('forgets what it learnt of an upload refused as a duplicate', async () => {
    const auth = catalogue.auth(owner);
    const discard = jest.spyOn(early, 'discard');
    const refused = await catalogue.http().post('/api/records/').set(auth).attach('file', BANK);
    expect(refused.status).toBe(400);
    expect(discard).toHaveBeenCalledTimes(1);
    discard.mockRestore();
    expect(JSON.stringify(refused.body)).toContain('already indexed');
    await eventually(async () => expect([early.size, early.describing]).toEqual([0, 0]));
  });

  it('forgets an upload whose client went away mid-way, and stores nothing of it', async () => {
    const auth = catalogue.auth(owner);
    const objects = () => sql.query<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.files').then((result) => result.rows[0].n);
    const filesBefore = await objects();
    const server = catalogue.app.getHttpServer() as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const boundary = 'early-extraction-test';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bank.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const half = readFileSync(BANK).subarray(0, 200_000);
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/records/',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 2 * half.length + 100) },
    });
    request.on('error', () => undefined);
    request.write(head);
    request.write(half);
    await eventually(async () => expect(early.describing).toBe(1));
    request.destroy();
    await eventually(async () => expect([early.size, early.describing]).toEqual([0, 0]));
    expect(await objects()).toBe(filesBefore);
  });
});
