import { Global, Module } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { listAll, ObjectStorage } from '@dc/storage';
import { createTestDatabase, describeInfra, eventually, TestDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { SOURCE_DOWNLOAD_SETTINGS } from '../uploads/source-download';

const CO2 = readFileSync(path.join(DATASETS, 'csv/co2-annmean-gl.csv'));
const GDP = readFileSync(path.join(DATASETS, 'csv/gdp.csv'));
const MAX_UPLOAD_BYTES = 100_000;

/** This machine has no internet: the sources are served from loopback, which these tests allow. */
@Global()
@Module({
  providers: [{ provide: SOURCE_DOWNLOAD_SETTINGS, useValue: { allowPrivateAddresses: true, timeoutMs: 2_000 } }],
  exports: [SOURCE_DOWNLOAD_SETTINGS],
})
class LoopbackSourcesAllowed {}

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

describeInfra('extractFromURL: the source URL fetched and indexed (real PostgreSQL, fs storage, a local HTTP server)', true, () => {
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let server: Server;
  let origin: string;
  const hanging: Array<() => void> = [];

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_source_url');
    catalogue = await CatalogueTestApp.start(db.url, { maxUploadBytes: MAX_UPLOAD_BYTES, modules: [LoopbackSourcesAllowed] });
    await catalogue.feedDirectory([owner], { [org]: 'Acme' });
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url === '/data/co2-annmean-gl.csv')
        return void res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': CO2.length }).end(CO2);
      if (url === '/latest') return void res.writeHead(302, { location: '/data/co2-annmean-gl.csv' }).end();
      if (url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (url === '/gdp.csv') return void res.writeHead(200, { 'content-type': 'text/csv', 'content-length': GDP.length }).end(GDP);
      // No length announced: the size limit is met while storing.
      if (url === '/gdp-chunked.csv') return void res.writeHead(200, { 'content-type': 'text/csv' }).end(GDP);
      if (url === '/hangs') return void hanging.push(() => res.destroy());
      res.writeHead(404).end('not here');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    hanging.forEach((end) => end());
    server?.close();
    await catalogue?.close();
    await db?.drop();
  });

  const post = async (fields: Record<string, string>, file?: Buffer) => {
    let call = catalogue
      .http()
      .post('/api/records/')
      .set(await catalogue.auth(owner));
    for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
    if (file) call = call.attach('file', file, 'upload.csv');
    return call;
  };
  const objects = async () => (await listAll(catalogue.app.get(ObjectStorage), 'catalogue/')).length;

  it('fetches the file at the source URL, stores it and extracts its metadata like an upload', async () => {
    const response = await post({ extractFromURL: 'YES', source: `${origin}/data/co2-annmean-gl.csv`, description: 'NOAA global means' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'co2-annmean-gl.csv',
      origin: 'url',
      type: 'csv',
      size: CO2.length,
      source: `${origin}/data/co2-annmean-gl.csv`,
    });
    expect(response.body.FILES).toEqual([
      expect.objectContaining({
        name: 'co2-annmean-gl.csv',
        content_type: 'text/csv',
        size: CO2.length,
        checksum: createHash('sha256').update(CO2).digest('hex'),
      }),
    ]);
    const details = await eventually(async () => {
      const record = await catalogue
        .http()
        .get(`/api/records/${response.body.id}`)
        .set(await catalogue.auth(owner));
      expect(record.body.extraction_status).toBe('done');
      return record.body;
    });
    expect(details.FILES[0].META.FILE).toMatchObject({ HEADERS: ['Year', 'Mean', 'Uncertainty'], TOTAL_ROWS: 47 });
  });

  it('follows redirects (a few), and names the file after the final URL', async () => {
    const response = await post({ extractFromURL: 'true', allowDuplicate: 'true', source: `${origin}/latest`, name: 'Latest CO2' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Latest CO2', alt_name: 'co2-annmean-gl.csv', FILES: [{ name: 'co2-annmean-gl.csv' }] });
  });

  it('answers field errors for what cannot be fetched, and leaves nothing stored', async () => {
    const before = await objects();
    const cases: Array<[Record<string, string>, number, Record<string, unknown>]> = [
      [{ extractFromURL: 'YES' }, 400, { source: ['Give the source URL to extract metadata from it.'] }],
      [{ extractFromURL: 'YES', source: 'ftp://example.org/data.csv' }, 400, { source: ['Enter a valid URL.'] }],
      [{ extractFromURL: 'YES', source: `${origin}/missing.csv` }, 400, { source: ['The source URL answered HTTP 404.'] }],
      [{ extractFromURL: 'YES', source: `${origin}/loop` }, 400, { source: ['The source URL redirects more than 3 times.'] }],
      [
        { extractFromURL: 'YES', source: `http://user:secret@127.0.0.1:1/x.csv` },
        400,
        { source: ['Source URLs with a user name or password are not fetched.'] },
      ],
      [{ extractFromURL: 'YES', source: `${origin}/hangs` }, 400, { source: ['The source URL did not answer within 2 s.'] }],
      [{ extractFromURL: 'YES', source: `${origin}/gdp.csv` }, 413, { detail: `The upload is too large: files may total at most ${MAX_UPLOAD_BYTES} bytes.` }],
      [
        { extractFromURL: 'YES', source: `${origin}/gdp-chunked.csv` },
        413,
        { detail: `The upload is too large: files may total at most ${MAX_UPLOAD_BYTES} bytes.` },
      ],
      [{ extractFromURL: 'YES', source: `${origin}/data/co2-annmean-gl.csv` }, 400, { file: [expect.stringContaining('is already indexed in the record')] }],
    ];
    for (const [fields, status, body] of cases) {
      const response = await post(fields);
      expect([fields, response.status, response.body]).toEqual([fields, status, body]);
    }
    const both = await post({ extractFromURL: 'YES', source: `${origin}/data/co2-annmean-gl.csv` }, Buffer.from('a,b\n1,2\n'));
    expect([both.status, both.body]).toEqual([400, { extractFromURL: ['Upload files or extract from the source URL, not both.'] }]);
    expect(await objects()).toBe(before);
  });
});
