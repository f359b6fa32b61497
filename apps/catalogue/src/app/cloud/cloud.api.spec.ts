import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, describeInfra, startS3rver, type TestDatabase, type TestS3Server } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);
const stranger = caller('stranger', randomUUID(), [1, 2, 3]);
const CO2 = readFileSync(path.join(DATASETS, 'csv/co2-annmean-gl.csv'));
const MLO = readFileSync(path.join(DATASETS, 'csv/co2-annmean-mlo.csv'));
const SPEECH = readFileSync(path.join(DATASETS, 'txt/Alaska_SOTS.txt'));
const LINKAGE_KEY = Buffer.alloc(32, 8).toString('base64url');
const hashOf = (value: string) => createHmac('sha256', Buffer.from(LINKAGE_KEY, 'base64url')).update(value).digest('hex').slice(0, 32);

describeInfra('S3 cloud accounts API (real PostgreSQL, s3rver with real datasets)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let s3: TestS3Server;
  let credentials: Record<string, string>;
  const http = () => catalogue.http();

  beforeAll(async () => {
    s3 = await startS3rver();
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    for (const bucket of ['climate', 'speeches']) await client.send(new CreateBucketCommand({ Bucket: bucket }));
    await client.send(new PutObjectCommand({ Bucket: 'climate', Key: 'noaa/co2-annmean-gl.csv', Body: CO2, ContentType: 'text/csv' }));
    await client.send(new PutObjectCommand({ Bucket: 'climate', Key: 'noaa/co2-annmean-mlo.csv', Body: MLO }));
    await client.send(new PutObjectCommand({ Bucket: 'speeches', Key: 'Alaska_SOTS.txt', Body: SPEECH }));
    client.destroy();
    credentials = { AwsAccessKeyId: s3.accessKeyId, AwsSecretAccessKey: s3.secretAccessKey, endpoint: s3.endpoint };
    db = await createTestDatabase('dc_catalogue_cloud');
    // s3rver listens on loopback: the operator allows it, as README says.
    catalogue = await CatalogueTestApp.start(db.url, { env: { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' } });
    await catalogue.feedDirectory([owner, stranger], { [org]: 'Acme', [stranger.organisationId]: 'Other' });
  });

  afterAll(async () => {
    await catalogue?.close();
    await db?.drop();
    await s3?.stop();
  });

  it("refuses wrong credentials and endpoints it may not reach with the spec's text", async () => {
    const auth = await catalogue.auth(owner);
    for (const body of [
      { ...credentials, AwsSecretAccessKey: 'wrong' },
      { ...credentials, AwsAccessKeyId: 'NOBODY' },
      { ...credentials, endpoint: 'http://10.1.2.3:9000' },
      { ...credentials, endpoint: 'http://169.254.169.254' },
    ]) {
      const response = await http()
        .post('/api/connect-aws/get-buckets/')
        .set(auth)
        .send({ ...body, saveAccount: true });
      expect([response.status, response.body]).toEqual([400, { detail: 'Loading buckets for this account failed. Please try again.' }]);
    }
    const objects = await http()
      .post('/api/connect-aws/get-bucket-objects/')
      .set(auth)
      .send({ ...credentials, AwsSecretAccessKey: 'wrong', bucket: 'climate' });
    expect([objects.status, objects.body]).toEqual([400, { detail: 'Loading bucket objects failed. Please try again.' }]);
    const bad = await http().post('/api/connect-aws/get-buckets/').set(auth).send({ endpoint: 'ftp://x', sync: 'hourly' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      endpoint: ['Enter the endpoint as http(s)://host[:port], without a path or credentials.'],
      non_field_errors: ['Choose a saved account, or give AwsAccessKeyId and AwsSecretAccessKey.'],
      sync: ['Only "once" is available: scheduled sync is not offered yet.'],
    });
    expect((await http().get('/api/connect-aws/get-accounts/').set(auth)).body.count).toBe(0);
  });

  it('lists buckets and saves the account (secret sealed, never answered); lists the objects of exactly one bucket', async () => {
    const auth = await catalogue.auth(owner);
    const buckets = await http()
      .post('/api/connect-aws/get-buckets/')
      .set(auth)
      .send({ ...credentials, saveAccount: 'true' });
    expect(buckets.status).toBe(200);
    expect(buckets.body.buckets.map((b: { name: string }) => b.name)).toEqual(['climate', 'speeches']);
    expect(buckets.body.account).toEqual({
      id: expect.any(String),
      AwsAccessKeyId: s3.accessKeyId,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      date_created: expect.any(String),
    });
    const accounts = await http().get('/api/connect-aws/get-accounts').set(auth);
    expect(accounts.body).toEqual({ count: 1, next: null, previous: null, results: [buckets.body.account] });
    const stored = await catalogue.sql<{ sealed_secret: string }>('SELECT sealed_secret FROM catalogue.cloud_accounts');
    expect(stored[0].sealed_secret).toMatch(/^v1\./);
    expect(stored[0].sealed_secret).not.toContain(s3.secretAccessKey);

    // The saved account is used by its id; the spec's GET with query parameters works too.
    const accountId = buckets.body.account.id;
    const objects = await http().get(`/api/connect-aws/get-bucket-objects/?accountId=${accountId}&bucket=climate`).set(auth);
    expect(objects.status).toBe(200);
    expect(objects.body).toEqual({
      bucket: 'climate',
      objects: [
        { name: 'noaa/co2-annmean-gl.csv', size: CO2.length, last_modified: expect.any(String) },
        { name: 'noaa/co2-annmean-mlo.csv', size: MLO.length, last_modified: expect.any(String) },
      ],
    });
    const two = await http()
      .post('/api/connect-aws/get-bucket-objects/')
      .set(auth)
      .send({ accountId, buckets: ['climate', 'speeches'] });
    expect([two.status, two.body]).toEqual([400, { bucket: ['Choose exactly one bucket.'] }]);
    const none = await http().post('/api/connect-aws/index-bucket/').set(auth).send({ accountId });
    expect([none.status, none.body]).toEqual([400, { bucket: ['Choose at least one bucket.'] }]);
    // (s3rver's secret is its key id, so the secret's field is what must not be there.)
    for (const body of [buckets.body, accounts.body, objects.body]) expect(JSON.stringify(body)).not.toMatch(/secret/i);
  });

  it('indexes objects streamed from the bucket into extraction, with a hashed column; a missing object gets its error text', async () => {
    const auth = await catalogue.auth(owner);
    const [account] = (await http().get('/api/connect-aws/get-accounts/').set(auth)).body.results;
    const response = await http()
      .post('/api/connect-aws/index-object/')
      .set(auth)
      .send({
        accountId: account.id,
        bucket: 'climate',
        objects: ['noaa/co2-annmean-gl.csv', 'noaa/missing.csv'],
        encryptList: ['Year'],
        linkageKey: LINKAGE_KEY,
        sync: 'once',
      });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      { id: expect.any(String), name: 'noaa/co2-annmean-gl.csv', bucket: 'climate', size: CO2.length, type: 'csv', error: null },
      { id: null, name: 'noaa/missing.csv', bucket: 'climate', size: 0, type: 'csv', error: 'Indexing this object failed: it could not be read.' },
    ]);
    const record = (await http().get(`/api/records/${response.body.results[0].id}`).set(auth)).body;
    expect(record).toMatchObject({
      name: 'co2-annmean-gl.csv',
      origin: 'cloud',
      type: 'csv',
      source: 's3://climate/noaa/co2-annmean-gl.csv',
      size: CO2.length,
      extraction_status: 'done',
      enc_headers: ['Year'],
      download_url: null,
    });
    // Hashed on the way in: the checksum is the object's, read once.
    expect(record.FILES[0]).toMatchObject({
      name: 'co2-annmean-gl.csv',
      content_type: 'text/csv',
      checksum: createHash('sha256').update(CO2).digest('hex'),
      stored: false,
    });
    const meta = record.FILES[0].META;
    expect(meta.FILE).toMatchObject({ HEADERS: ['Year', 'Mean', 'Uncertainty'], TOTAL_ROWS: 47 });
    expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(['1979', '1980', '1981', '1982', '1983'].map(hashOf));
    expect(meta.ENCRYPTED_COLS).toEqual(['Year']);
    // As for an extracted upload: the relations service hears of the file's sketches.
    expect((await catalogue.events(record.FILES[0].id)).map((e) => e.type)).toEqual(['file.metadata-extracted', 'file.sketched']);
    expect(meta.FILE.STATS['1'].MAX).toBe(
      Math.max(
        ...CO2.toString()
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => Number(l.split(',')[1])),
      ),
    );
  });

  it('indexes every object of the chosen buckets', async () => {
    const auth = await catalogue.auth(owner);
    const [account] = (await http().get('/api/connect-aws/get-accounts/').set(auth)).body.results;
    const response = await http().get(`/api/connect-aws/index-bucket/?accountId=${account.id}&bucket=climate&bucket=speeches&sync=once`).set(auth);
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: { name: string; error: string | null; type: string }) => [r.name, r.type, r.error])).toEqual([
      ['noaa/co2-annmean-gl.csv', 'csv', null],
      ['noaa/co2-annmean-mlo.csv', 'csv', null],
      ['Alaska_SOTS.txt', 'txt', null],
    ]);
    const speech = (await http().get(`/api/records/${response.body.results[2].id}`).set(auth)).body;
    expect(speech.FILES[0].META).toMatchObject({ TYPE: 'txt', STATUS: 'complete' });
    expect(speech.FILES[0].META.WORDSET).toContain('alaska');
  });

  it('keeps accounts to their owner: nobody else lists, uses or deletes them (404)', async () => {
    const [account] = (
      await http()
        .get('/api/connect-aws/get-accounts/')
        .set(await catalogue.auth(owner))
    ).body.results;
    const auth = await catalogue.auth(stranger);
    expect((await http().get('/api/connect-aws/get-accounts/').set(auth)).body).toMatchObject({ count: 0, results: [] });
    const calls = [
      http().post('/api/connect-aws/get-buckets/').set(auth).send({ accountId: account.id }),
      http().post('/api/connect-aws/get-bucket-objects/').set(auth).send({ accountId: account.id, bucket: 'climate' }),
      http().post('/api/connect-aws/index-bucket/').set(auth).send({ accountId: account.id, bucket: 'climate' }),
      http().post('/api/connect-aws/index-object/').set(auth).send({ accountId: account.id, bucket: 'climate', object: 'noaa/co2-annmean-gl.csv' }),
      http().post('/api/connect-aws/delete-account/').set(auth).send({ accountId: account.id }),
      http().get(`/api/connect-aws/delete-account/?accountId=${account.id}`).set(auth),
    ];
    for (const response of await Promise.all(calls)) expect([response.status, response.body]).toEqual([404, { detail: 'Not found.' }]);
    const owned = await catalogue.auth(owner);
    expect((await http().post('/api/connect-aws/delete-account/').set(owned).send({ accountId: account.id })).status).toBe(204);
    expect((await http().get('/api/connect-aws/get-accounts/').set(owned)).body.count).toBe(0);
    expect((await http().post('/api/connect-aws/delete-account/').set(owned).send({ accountId: account.id })).status).toBe(404);
  });
});
