import { randomUUID } from 'node:crypto';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp } from '../../testing/catalogue-test-app';

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

const NUL = 'Null characters are not allowed.';
const surrogate = (code: string) => `Surrogate characters are not allowed: U+${code}.`;

/**
 * Text PostgreSQL cannot store (NUL; lone UTF-16 surrogates, which would be stored as U+FFFD) is a
 * 400 naming the field on every way text comes in, never a 500 from the database, and nothing is
 * written.
 */
describeInfra('catalogue: text PostgreSQL cannot store is a 400 with a field error (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let auth: { Authorization: string };
  let recordId: string;
  let fileId: string;

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_text');
    catalogue = await CatalogueTestApp.start(db.url);
    await catalogue.feedDirectory([owner], { [org]: 'Acme' });
    auth = await catalogue.auth(owner);
    const created = await catalogue.http().post('/api/records/').set(auth).attach('file', Buffer.from('a,b\n1,2\n'), 'known.csv');
    expect(created.status).toBe(201);
    recordId = created.body.id;
    fileId = created.body.FILES[0].id;
  });
  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
  });

  const records = async () => (await catalogue.sql<{ n: number }>('SELECT count(*)::int AS n FROM catalogue.records'))[0].n;

  it.each([
    ['name', 'Rain\u0000fall', NUL],
    ['description', '\u0000', NUL],
    ['provenance', 'from \u0000 somewhere', NUL],
    ['name', 'half \ud800 a pair', surrogate('D800')],
    ['description', 'trailing \udc01', surrogate('DC01')],
  ])('POST JSON %s: 400 with the field error, nothing written', async (field, value, message) => {
    const before = await records();
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(auth)
      .send({ name: 'Fine', [field]: value });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ [field]: [message] });
    expect(await records()).toBe(before);
  });

  it('POST JSON: a custom field label with NUL (a key, not a value)', async () => {
    const response = await catalogue
      .http()
      .post('/api/records/')
      .set(auth)
      .send({ name: 'Fine', RECORD: { ['lab\u0000el']: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ RECORD: [NUL] });
  });

  it.each(['name', 'description', 'provenance'])('POST multipart %s with NUL: 400, and the uploaded file is not kept', async (field) => {
    const before = await records();
    const response = await catalogue.http().post('/api/records/').set(auth).field(field, 'a\u0000b').attach('file', Buffer.from('x,y\n3,4\n'), 'other.csv');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ [field]: [NUL] });
    expect(await records()).toBe(before);
    expect((await catalogue.sql('SELECT id FROM catalogue.files WHERE name = $1', ['other.csv'])).length).toBe(0);
  });

  it.each([
    ['name', 'x\u0000'],
    ['alt_name', '\u0000'],
    ['description', 'a\u0000'],
    ['provenance', '\u0000b'],
  ])('PUT %s with NUL: 400 with the field error, the record unchanged', async (field, value) => {
    const response = await catalogue
      .http()
      .put(`/api/records/${recordId}/`)
      .set(auth)
      .send({ [field]: value });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ [field]: [NUL] });
    const [row] = await catalogue.sql<{ version: number }>('SELECT version FROM catalogue.records WHERE id = $1', [recordId]);
    expect(row.version).toBe(1);
  });

  it('PUT nested under "record": the nested field is named', async () => {
    const response = await catalogue
      .http()
      .put(`/api/records/${recordId}/`)
      .set(auth)
      .send({ record: { description: 'ok \ud83d' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ record: [surrogate('D83D')] });
  });

  it('PUT /api/files/{id}/ renaming to a name with NUL: 400', async () => {
    const response = await catalogue.http().put(`/api/files/${fileId}/`).set(auth).send({ name: 'bad\u0000.csv' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ name: [NUL] });
  });

  it('a query parameter with NUL: 400 naming the parameter', async () => {
    const response = await catalogue.http().get(`/api/records/${recordId}/download/?file=%00`).set(auth);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ file: [NUL] });
  });

  it('well-formed text outside the BMP (emoji, pairs of surrogates) is kept as sent', async () => {
    const response = await catalogue.http().post('/api/records/').set(auth).send({ name: 'Rain 🌧️ 𝔡𝔞𝔱𝔞', description: '日本語 ✓' });
    expect(response.status).toBe(201);
    const [row] = await catalogue.sql<{ name: string; description: string }>('SELECT name, description FROM catalogue.records WHERE id = $1', [
      response.body.id,
    ]);
    expect(row).toEqual({ name: 'Rain 🌧️ 𝔡𝔞𝔱𝔞', description: '日本語 ✓' });
  });

  it('a CSV whose cells hold NUL past the binary sniffing: extraction ends, META keeps U+FFFD in their place', async () => {
    // The first 4 KiB (what extraction sniffs for binary data) are one long, clean row.
    const body = `id,text\n1,${'x'.repeat(5000)}\n2,a\u0000b\n`;
    const created = await catalogue.http().post('/api/records/').set(auth).field('extractOption', 'samples').attach('file', Buffer.from(body), 'nul-cells.csv');
    expect(created.status).toBe(201);
    const file = await eventually(async () => {
      const details = await catalogue.http().get(`/api/records/${created.body.id}`).set(auth);
      expect(details.body.FILES[0].extraction_status).toBe('done');
      return details.body.FILES[0];
    });
    expect(file.META.FILE.STATS['1'].FORMATTED_VALS[1]).toBe('a\ufffdb');
  });
});
