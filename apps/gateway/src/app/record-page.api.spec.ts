import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsonld from 'jsonld';
import { CatalogueModule } from '@dc/service-catalogue';
import { createTestDatabase, DATASETS, describeInfra, directoryEvents, eventually, ServiceTestApp, testCaller, type TestDatabase } from '@dc/testing';
import { serveWebApp } from './web-app';

const SCHEMA = 'https://schema.org/';
const INDEX_HTML = readFileSync(path.resolve(__dirname, '../../../web/index.html'), 'utf8');
const JSON_LD_SCRIPT = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g;

/** jsonld must never fetch: the JSON-LD carries its context inline. */
const offline = async (url: string): Promise<never> => {
  throw new Error(`jsonld tried to load ${url}`);
};

/**
 * A public record's page for search engines, as embedded mode serves it: the gateway's web app and
 * the catalogue in one process on real PostgreSQL, the page read with plain HTTP (no JavaScript), its
 * JSON-LD parsed with jsonld. Records that are not public get the plain app, the same as unknown ones.
 */
describeInfra('gateway: schema.org Dataset in the HTML of a public record page (real PostgreSQL, jsonld)', true, () => {
  let db: TestDatabase;
  let service: ServiceTestApp;
  let base: string;
  let webDir: string;
  const owner = testCaller('owner', randomUUID());
  const ids = {} as Record<'open' | 'onRequest' | 'hidden', string>;

  const page = async (recordId: string) => {
    const answer = await fetch(`${base}/records/${recordId}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    return answer.text();
  };
  const expandedDataset = async (html: string) => {
    const scripts = [...html.matchAll(JSON_LD_SCRIPT)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    const [node] = await jsonld.expand(JSON.parse(scripts[0]), { documentLoader: offline as never });
    return node as Record<string, Array<Record<string, unknown>>>;
  };
  const values = (node: Record<string, Array<Record<string, unknown>>>, property: string) => (node[`${SCHEMA}${property}`] ?? []).map((v) => v['@value']);

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(os.tmpdir(), 'record-page-web-'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
    db = await createTestDatabase('dc_record_page');
    service = await ServiceTestApp.start({
      service: 'gateway',
      name: 'record-page',
      modules: [CatalogueModule],
      databaseUrl: db.url,
      configure: (nest) => {
        serveWebApp(nest.getHttpAdapter().getInstance(), webDir);
      },
    });
    await service.app.listen(0, '127.0.0.1');
    base = (await service.app.getUrl()).replace('[::1]', '127.0.0.1');
    await service.publish(...directoryEvents([owner], { [owner.organisationId]: 'Acme & Sons' }));
    await eventually(async () => expect(await service.sql('SELECT 1 FROM catalogue.organisations WHERE id = $1', [owner.organisationId])).toHaveLength(1));
    const create = async (fields: Record<string, string>, file?: string) => {
      let call = service.request('post', '/api/records/', owner);
      for (const [name, value] of Object.entries(fields)) call = call.field(name, value);
      if (file) call = call.attach('file', path.join(DATASETS, file));
      const answer = await call;
      expect(answer.status).toBe(201);
      return answer.body.id as string;
    };
    ids.open = await create(
      { name: 'CO2 </script><script>alert(1)</script>', description: 'Annual means "quoted" & <b>bold</b>.', access: 'OP', visibility: 'EV' },
      'csv/co2-annmean-gl.csv',
    );
    ids.onRequest = await create({ name: 'Tide gauges', description: 'On request.', visibility: 'EV', accessFee: '25' });
    ids.hidden = await create({ name: 'Secret payroll', description: 'Private.', visibility: 'PR', access: 'OP' });
    await eventually(async () => expect((await service.request('get', `/api/records/${ids.open}`)).body.extraction_status).toBe('done'));
  });

  afterAll(async () => {
    await service?.stop();
    await db?.drop();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("an Open record's page: title, description and a schema.org Dataset that jsonld reads, without JavaScript", async () => {
    const html = await page(ids.open);
    // The title cannot break out of the script element or the head.
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('<title>CO2 &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; - Data Catalogue</title>');
    expect(html).toContain('<meta name="description" content="Annual means &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;." />');
    expect(html).toContain('<base href="../" />');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(new RegExp(`<link rel="alternate" type="text/turtle" href="https?://[^"]+/api/dcat/datasets/${ids.open}" />`));

    const dataset = await expandedDataset(html);
    expect(dataset['@type']).toEqual([`${SCHEMA}Dataset`]);
    expect(values(dataset, 'name')).toEqual(['CO2 </script><script>alert(1)</script>']);
    expect(values(dataset, 'description')).toEqual(['Annual means "quoted" & <b>bold</b>.']);
    expect(values(dataset, 'url')).toEqual([expect.stringMatching(new RegExp(`^https?://[^/]+/records/${ids.open}$`))]);
    expect(html).toContain(`/records/${ids.open}" />`);
    expect(values(dataset, 'keywords')).toEqual(expect.arrayContaining(['year', 'mean', 'uncertainty']));
    expect(values(dataset, 'isAccessibleForFree')).toEqual([true]);
    expect(values(dataset, 'dateCreated')[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(values(dataset, 'dateModified')[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const role of ['creator', 'publisher']) {
      const [organisation] = dataset[`${SCHEMA}${role}`] as Array<Record<string, Array<Record<string, unknown>>>>;
      expect(organisation['@type']).toEqual([`${SCHEMA}Organization`]);
      expect(values(organisation, 'name')).toEqual(['Acme & Sons']);
    }
    const [download] = dataset[`${SCHEMA}distribution`] as Array<Record<string, Array<Record<string, unknown>>>>;
    expect(download['@type']).toEqual([`${SCHEMA}DataDownload`]);
    expect(values(download, 'encodingFormat')).toEqual(['text/csv']);
    const [contentUrl] = values(download, 'contentUrl') as string[];
    expect(contentUrl).toMatch(new RegExp(`/api/dcat/datasets/${ids.open}/distributions/[0-9a-f-]+/download$`));
  });

  it('access on request: not free, the conditions said, and no download address', async () => {
    const dataset = await expandedDataset(await page(ids.onRequest));
    expect(values(dataset, 'name')).toEqual(['Tide gauges']);
    expect(values(dataset, 'isAccessibleForFree')).toEqual([false]);
    expect(String(values(dataset, 'conditionsOfAccess')[0])).toContain('Access fee: 25');
    expect(JSON.stringify(dataset)).not.toContain('contentUrl');
  });

  it('a private record and an unknown one get the same plain app, with no JSON-LD and no hint', async () => {
    const hidden = await page(ids.hidden);
    const unknown = await page(randomUUID());
    expect(hidden).toBe(unknown);
    expect(hidden).not.toContain('application/ld+json');
    expect(hidden).not.toContain('Secret payroll');
    expect(hidden).toContain('<title>Data Catalogue</title>');
  });
});
