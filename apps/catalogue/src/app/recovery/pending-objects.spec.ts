import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'pg';
import { DetailError } from '@dc/platform';
import { listAll, ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { CatalogueInstance } from './catalogue-instance';
import { PendingObjects, UPLOAD_INTERRUPTED } from './pending-objects';

const CO2 = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

describeInfra('objects pending a record or a delete (real PostgreSQL, fs storage)', true, () => {
  let db: TestDatabase;
  let sql: Client;
  let catalogue: CatalogueTestApp;

  const storage = () => catalogue.app.get(ObjectStorage);
  const pendingRows = async () => (await sql.query('SELECT storage_key, reason FROM catalogue.pending_objects ORDER BY storage_key')).rows;
  const store = (key: string) => storage().put(key, Readable.from([Buffer.from(key)]), { contentType: 'text/plain' });
  const pend = (key: string, holder: string, reason: 'upload' | 'delete') =>
    sql.query('INSERT INTO catalogue.pending_objects (storage_key, holder, reason) VALUES ($1, $2, $3)', [key, holder, reason]);

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_pending_objects');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    catalogue = await CatalogueTestApp.start(db.url);
    await catalogue.feedDirectory([owner], { [org]: 'Acme' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await sql?.end();
    await db?.drop();
  });

  it("settles an upload's objects with its record, removes those of a refused upload and of a deleted record", async () => {
    const auth = await catalogue.auth(owner);
    const created = await catalogue.http().post('/api/records/').set(auth).attach('file', CO2);
    expect(created.status).toBe(201);
    expect(await pendingRows()).toEqual([]);
    // The same content again is refused as a duplicate: its object goes, and so does its row.
    const refused = await catalogue.http().post('/api/records/').set(auth).attach('file', CO2);
    expect(refused.status).toBe(400);
    expect(await pendingRows()).toEqual([]);
    expect(await listAll(storage(), 'catalogue/')).toEqual([`catalogue/files/${created.body.FILES[0].id}`]);

    expect((await catalogue.http().delete(`/api/records/${created.body.id}`).set(auth)).status).toBe(204);
    expect(await pendingRows()).toEqual([]);
    expect(await listAll(storage(), 'catalogue/')).toEqual([]);
  });

  it('deletes at start-up what a killed instance was uploading or deleting, and nothing of a living one', async () => {
    const living = randomUUID();
    const session = new Client({ connectionString: db.url });
    await session.connect();
    try {
      await session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [living]);
      const killed = randomUUID();
      for (const key of ['catalogue/files/half-received', 'catalogue/files/of-a-deleted-file', 'catalogue/files/still-arriving']) await store(key);
      await pend('catalogue/files/half-received', killed, 'upload');
      await pend('catalogue/files/of-a-deleted-file', killed, 'delete');
      await pend('catalogue/files/still-arriving', living, 'upload');

      const dataDir = catalogue.dataDir;
      await catalogue.close({ keepData: true });
      catalogue = await CatalogueTestApp.start(db.url, { dataDir });
      expect(await listAll(storage(), 'catalogue/')).toEqual(['catalogue/files/still-arriving']);
      expect(await pendingRows()).toEqual([{ storage_key: 'catalogue/files/still-arriving', reason: 'upload' }]);
    } finally {
      await session.end();
    }
    // The other instance died too: the next sweep takes its upload.
    expect(await catalogue.app.get(PendingObjects).sweep()).toBe(1);
    expect(await listAll(storage(), 'catalogue/')).toEqual([]);
    expect(await pendingRows()).toEqual([]);
  });

  it('refuses to record an upload whose objects were swept meanwhile (its instance was taken for dead)', async () => {
    const pending = catalogue.app.get(PendingObjects);
    const upload = pending.upload();
    await upload.beforePut('catalogue/files/swept');
    expect(await pendingRows()).toEqual([{ storage_key: 'catalogue/files/swept', reason: 'upload' }]);
    await sql.query('DELETE FROM catalogue.pending_objects');
    const refused = await catalogue.app
      .get(UnitOfWork)
      .transaction(() => pending.settle(['catalogue/files/swept']))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DetailError);
    expect([(refused as DetailError).getStatus(), (refused as DetailError).getResponse()]).toEqual([409, { detail: UPLOAD_INTERRUPTED }]);
  });

  it('holds its instance lock for as long as it runs', async () => {
    const { id } = catalogue.app.get(CatalogueInstance);
    const locked = await sql.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
      [id],
    );
    expect(locked.rows[0].n).toBe(1);
  });
});
