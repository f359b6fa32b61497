import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeInfra, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

const FIXTURES = path.join(__dirname, '../../catalogue/src/app/harvest/testing');
const TURTLE = readFileSync(path.join(FIXTURES, 'regional-catalogue.ttl'), 'utf8');

/**
 * Import a DCAT catalogue end to end in embedded mode: from a URL served by a real HTTP server on
 * loopback (which the operator allows), then from an uploaded JSON-LD file, each followed on the
 * Jobs page to its counts, and a private address refused on the form; axe-core on each screen.
 */
describeInfra('Import a DCAT catalogue in chromium (real product)', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(300_000);
  let product: RealProduct;
  let browser: Browser;
  let page: Page;
  let grace: SignedIn;
  let server: Server;
  let catalogueUrl: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/catalog.ttl') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(TURTLE);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    catalogueUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalog.ttl`;
    product = await startRealProduct('harvest', { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' });
    grace = await founder(product, 'grace', 'compiler of catalogues 1952');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), grace.token);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const importButton = () => page.getByRole('button', { name: 'Import', exact: true });
  const harvestCards = () => page.getByTestId('jobs-list').locator('li').filter({ hasText: 'HARVEST' });

  it('imports the catalogue at a URL and follows the job to its counts on the Jobs page', async () => {
    await page.goto(`${product.base}/#/indexdata`);
    await page.getByRole('tab', { name: 'Import a DCAT catalogue' }).click();
    await page.getByRole('heading', { name: 'Import a DCAT catalogue' }).waitFor();
    expect(await importButton().isDisabled()).toBe(true);
    await saveScreenshot(page, 'harvest-form');
    await expectAccessible(page, 'harvest-form');

    await page.getByLabel(/^Catalogue URL/).fill(catalogueUrl);
    await importButton().click();
    const started = page.getByTestId('harvest-started');
    await started.getByText(`3 datasets found in ${catalogueUrl}: the import is running.`).waitFor();
    await expectAccessible(page, 'harvest-started');

    await started.getByRole('link', { name: 'Follow the import on the Jobs page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Backend Jobs' }).waitFor();
    const card = harvestCards().first();
    await card.getByText('Status: Complete').waitFor({ timeout: 60_000 });
    await card.getByText('3 created, 0 updated, 0 failed').waitFor();
    await card.getByText(`Imported 3 of 3 datasets from ${catalogueUrl}: 3 created, 0 updated.`).waitFor();
    await saveScreenshot(page, 'harvest-job');
    await expectAccessible(page, 'harvest-job');
  });

  it('imports an uploaded JSON-LD file, and refuses a private address with the reason on the form', async () => {
    await page.goto(`${product.base}/#/indexdata?tab=dcat`);
    await page.getByRole('heading', { name: 'Import a DCAT catalogue' }).waitFor();
    await page.getByLabel(/^Catalogue URL/).fill('http://10.1.2.3/catalog.ttl');
    await importButton().click();
    await page.getByText(/points to a local or private network address/).waitFor();
    await expectAccessible(page, 'harvest-refused');

    await page.getByRole('radio', { name: 'Upload a file' }).check({ force: true });
    await page.getByLabel(/^Catalogue file/).setInputFiles(path.join(FIXTURES, 'harbour-catalogue.jsonld'));
    await importButton().click();
    await page.getByTestId('harvest-started').getByText('2 datasets found in harbour-catalogue.jsonld: the import is running.').waitFor();
    await page.getByRole('link', { name: 'Follow the import on the Jobs page' }).click();
    const card = page.getByTestId('jobs-list').locator('li').filter({ hasText: 'harbour-catalogue.jsonld' });
    await card.getByText('2 created, 0 updated, 0 failed').waitFor({ timeout: 60_000 });
    expect(await harvestCards().count()).toBe(2);
  });
});
