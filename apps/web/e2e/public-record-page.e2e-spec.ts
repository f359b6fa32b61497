import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonld from 'jsonld';
import type { Browser } from 'playwright-core';
import { DATASETS, describeInfra, expectAccessible, launchChromium } from '@dc/testing';
import { CHROMIUM, hashOf, PASSWORD } from './identity-screens';
import { founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

const SCHEMA = 'https://schema.org/';

/** jsonld must not fetch anything: the page's JSON-LD has its context inline. */
const offline = async (url: string): Promise<never> => {
  throw new Error(`jsonld tried to load ${url}`);
};

/**
 * A public record's address (/records/{id}, the one DCAT-AP and schema.org name) in the built product:
 * a crawler without JavaScript reads its title and schema.org Dataset; a person lands on the record's
 * screen; a private record's address gives the plain app.
 */
describeInfra('public record page (real product, chromium): schema.org for crawlers, the record for people', CHROMIUM, () => {
  jest.setTimeout(120_000);
  let product: RealProduct;
  let browser: Browser;
  let publisher: SignedIn;
  const ids = {} as Record<'open' | 'hidden', string>;

  const create = async (fields: Record<string, string>, file?: string) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) form.append('file', new Blob([readFileSync(path.join(DATASETS, file))], { type: 'text/csv' }), path.basename(file));
    const answer = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${publisher.token}` }, body: form });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { id: string } | Array<{ id: string }>;
    return Array.isArray(body) ? body[0].id : body.id;
  };

  beforeAll(async () => {
    product = await startRealProduct('public-record-page');
    browser = await launchChromium();
    publisher = await founder(product, 'publisher', PASSWORD);
    ids.open = await create({ name: 'Global CO2 means', description: 'Annual global mean CO2.', visibility: 'EV', access: 'OP' }, 'csv/co2-annmean-gl.csv');
    ids.hidden = await create({ name: 'Secret payroll', description: 'Private.', visibility: 'PR' });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it('a crawler without JavaScript reads the title, description and a schema.org Dataset', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${product.base}/records/${ids.open}`);
      expect(await page.title()).toBe('Global CO2 means - Data Catalogue');
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe('Annual global mean CO2.');
      const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
      expect(scripts).toHaveLength(1);
      const [dataset] = (await jsonld.expand(JSON.parse(scripts[0]), { documentLoader: offline as never })) as Array<
        Record<string, Array<Record<string, unknown>>>
      >;
      expect(dataset['@type']).toEqual([`${SCHEMA}Dataset`]);
      expect(dataset[`${SCHEMA}name`]).toEqual([{ '@value': 'Global CO2 means' }]);
      expect(dataset[`${SCHEMA}url`]).toEqual([{ '@value': `${product.base}/records/${ids.open}` }]);
      const [download] = dataset[`${SCHEMA}distribution`] as Array<Record<string, Array<Record<string, unknown>>>>;
      expect(download[`${SCHEMA}encodingFormat`]).toEqual([{ '@value': 'text/csv' }]);

      await page.goto(`${product.base}/records/${ids.hidden}`);
      expect(await page.title()).toBe('Data Catalogue');
      expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("a person following the address lands on the record's screen, signed out", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${product.base}/records/${ids.open}`);
      await page.getByRole('heading', { level: 1, name: 'Global CO2 means' }).waitFor();
      expect(hashOf(page)).toBe(`#/records/${ids.open}`);
      expect(new URL(page.url()).pathname).toBe('/');
      await expectAccessible(page, 'public-record-page');
    } finally {
      await context.close();
    }
  });
});
