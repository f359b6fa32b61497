// The catalogue wired as in production, with every file profiled in the worker thread
// (EXTRACTION_THREAD_MIN_BYTES=0): META, private columns and the sketches for relations arrive as they do in one thread.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';

const SP500 = path.join(DATASETS, 'csv/sp500-constituents.csv');
const orgA = randomUUID();
const owner = caller('owner', orgA, [3]);

describeInfra('extraction in a worker thread (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_thread');
    catalogue = await CatalogueTestApp.start(db.url, { env: { EXTRACTION_THREAD_MIN_BYTES: '0' } });
    await catalogue.feedDirectory([owner], { [orgA]: 'Acme' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  it('stores META with hashed columns and publishes the sketches of an uploaded file', async () => {
    const auth = await catalogue.auth(owner);
    const linkageKey = Buffer.alloc(32, 11).toString('base64url');
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(auth)
      .field('encryptList', '["Symbol"]')
      .field('linkageKey', linkageKey)
      .attach('file', SP500);
    expect(response.status).toBe(201);
    const file = await eventually(async () => {
      const details = await catalogue.http().get(`/api/records/${response.body.id}`).set(auth);
      expect(details.body.FILES[0].extraction_status).toBe('done');
      return details.body.FILES[0];
    });
    expect(file.META).toMatchObject({ STATUS: 'complete', ENCRYPTED_COLS: ['Symbol'], FILE: { TOTAL_ROWS: 503 } });
    expect(file.META.FILE.HEADERS[0]).toBe('Symbol');
    const sketched = (await catalogue.events(file.id)).find((e) => e.type === 'file.sketched');
    expect((sketched?.payload as { tables: Array<{ totalRows: number; columns: Array<{ header: string; privacy: string }> }> }).tables[0]).toMatchObject({
      totalRows: 503,
      columns: expect.arrayContaining([expect.objectContaining({ header: 'Symbol', privacy: 'hashed' })]),
    });
  });
});
