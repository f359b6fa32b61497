import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type RealProduct, type SignedIn, startRealProduct } from './real-product';

const GDP = 'csv/gdp.csv';
const BANK = 'csv/bank-marketing.csv';
const PDF = 'pdf/masculinity-survey.pdf';

/**
 * Issue 25, item 9 and "Profiles people would rather look at", walked in a real browser against the
 * product in embedded mode with real files: the owner's Download is not red and stands apart from
 * Delete; numbers read with grouped digits (the exact value in a title); sample rows of text columns
 * are not blank; a PDF's facts have readable names; the Statistics tab shows a table overview and,
 * per column, a missing/distinct bar, a histogram (numbers, dates) or the most frequent values (text),
 * and quartiles, each chart with a table; and a second account without a grant sees no histogram of
 * a near-unique column and no most frequent value found in fewer than 10 rows.
 * Screenshots: test-artifacts/screenshots/journey-details-*.png.
 */
describeInfra(
  'record details a person reads (embedded product, a browser, two organisations)',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(420_000);
    let product: RealProduct;
    let browser: Browser;
    let owner: SignedIn;
    let other: SignedIn;
    let page: Page;
    let otherPage: Page;
    const ids: Record<string, string> = {};
    /** A full-page screenshot from the top (the sticky bar would otherwise show where the page was scrolled). */
    const shot = async (p: Page, name: string) => {
      await p.evaluate(() => window.scrollTo(0, 0));
      return saveScreenshot(p, `journey-details-${name}`);
    };
    const contexts: BrowserContext[] = [];

    async function pageOf(who: SignedIn): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), who.token);
      contexts.push(context);
      return context.newPage();
    }

    /** Uploads a dataset as `who`, visible to everyone with request access, and waits for its extraction. */
    async function upload(who: SignedIn, file: string, name: string, extractOption: 'metadata' | 'samples'): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(path.join(DATASETS, file))]), path.basename(file));
      form.append('name', name);
      form.append('extractOption', extractOption);
      const created = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${who.token}` }, body: form });
      if (created.status !== 201) throw new Error(`upload ${file}: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      expect((await apiCall(product, who.token, 'PUT', `/api/records/${id}/`, { visibility: 'EV', access: 'RE' })).status).toBe(200);
      await eventually(async () => {
        const details = (await (await apiCall(product, who.token, 'GET', `/api/records/${id}`)).json()) as { extraction_status: string };
        expect(details.extraction_status).toBe('done');
      });
      return id;
    }

    async function openTab(p: Page, id: string, tab: string): Promise<void> {
      await p.goto(`${product.base}/#/records/${id}`);
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.getByRole('tab', { name: tab, exact: true }).click();
    }

    const card = (p: Page, header: string): Locator => p.getByRole('region', { name: `Column ${header}`, exact: true });

    async function bothSizes(p: Page, screen: string): Promise<void> {
      await expectAccessible(p, `${screen}-1366`);
      await p.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(p, `${screen}-390`);
      await p.setViewportSize({ width: 1366, height: 900 });
    }

    beforeAll(async () => {
      product = await startRealProduct('journey-details');
      owner = await founder(product, 'olga', 'owner of figures 2025', { first_name: 'Olga', last_name: 'Owner' });
      other = await founder(product, 'nils', 'reader without grant 2025', { first_name: 'Nils', last_name: 'Reader' });
      ids.gdp = await upload(owner, GDP, 'GDP by country', 'metadata');
      ids.bank = await upload(owner, BANK, 'Bank marketing', 'samples');
      ids.pdf = await upload(owner, PDF, 'Masculinity survey', 'metadata');
      browser = await launchChromium();
      page = await pageOf(owner);
      otherPage = await pageOf(other);
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    it("the owner's Download is not the danger colour and stands apart from Delete", async () => {
      await page.goto(`${product.base}/#/records/${ids.gdp}`);
      const data = page.getByRole('group', { name: 'Data' });
      const manage = page.getByRole('group', { name: 'Manage record' });
      const download = data.getByRole('button', { name: 'Download', exact: true });
      await download.waitFor();
      expect(await data.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      await manage.getByRole('button', { name: 'Delete', exact: true }).waitFor();
      const [downloadColour, deleteColour] = await Promise.all([
        download.evaluate((el) => getComputedStyle(el).backgroundColor),
        manage.getByRole('button', { name: 'Delete' }).evaluate((el) => getComputedStyle(el).color),
      ]);
      const rgb = (css: string) => (css.match(/\d+/g) ?? []).slice(0, 3).map(Number);
      const [r, , b] = rgb(downloadColour);
      // Red is Delete's (its text); Download is blue.
      expect(b).toBeGreaterThan(r);
      expect(rgb(deleteColour)[0]).toBeGreaterThan(rgb(deleteColour)[2]);
      await shot(page, 'actions');
      await bothSizes(page, 'journey-details-actions');
    });

    it('numbers read with grouped digits and the exact value in a title; text columns have five sample rows', async () => {
      await openTab(page, ids.gdp, 'Statistics');
      const value = card(page, 'Value');
      const mean = value.getByTestId('stat-mean').locator('span');
      await mean.waitFor();
      expect(await mean.textContent()).toMatch(/^\d{1,3}(,\d{3})+$/);
      const exact = Number(await mean.getAttribute('title'));
      expect(Number((await mean.textContent())!.replace(/,/g, ''))).toBe(Math.round(exact));
      expect(await page.getByTestId('overview-rows').textContent()).toMatch(/^\d{1,3},\d{3}$/);

      await page.getByRole('tab', { name: 'Sample Values', exact: true }).click();
      const samples = page.getByRole('table', { name: 'Sample values' });
      await samples.waitFor();
      const headers = await samples.getByRole('columnheader').allTextContents();
      const name = headers.indexOf('Country Name');
      const rows = samples.locator('tbody tr');
      expect(await rows.count()).toBe(5);
      for (let r = 0; r < 5; r++) expect((await rows.nth(r).locator('td').nth(name).textContent())?.trim()).not.toBe('');
      await shot(page, 'sample-values');
    });

    it("a PDF's facts have readable names", async () => {
      await openTab(page, ids.pdf, 'File Metadata');
      const labelsOf = page.locator('dl[aria-label="Document"] dt');
      await labelsOf.first().waitFor();
      const labels = (await labelsOf.allTextContents()).map((label) => label.trim());
      expect(labels).toEqual(expect.arrayContaining(['Pages', 'Lines', 'Words']));
      expect(labels.filter((label) => /^[A-Z_]{2,}$/.test(label))).toEqual([]);
      await shot(page, 'pdf');
      await bothSizes(page, 'journey-details-pdf');
    });

    it('the Access tab speaks to the owner, not to a developer', async () => {
      await openTab(page, ids.gdp, 'Access');
      const trail = page.getByRole('region', { name: 'Audit trail' });
      await trail.getByText(/a later change to any entry can be detected/).waitFor();
      expect(
        await page
          .getByRole('tabpanel', { name: 'Access' })
          .getByText(/npm run|audit:verify/)
          .count(),
      ).toBe(0);
    });

    it('the Statistics tab: a table overview, and per column a missing/distinct bar, a histogram or the most frequent values, quartiles, and tables for the charts', async () => {
      await openTab(page, ids.bank, 'Statistics');
      await page.getByTestId('table-overview').waitFor();
      expect(await page.getByTestId('overview-rows').textContent()).toBe('4521');
      expect(await page.getByTestId('overview-columns').textContent()).toBe('17');
      expect(await page.getByTestId('overview-column-types').textContent()).toMatch(/integer/);

      const age = card(page, 'age');
      await age.getByRole('img', { name: /^Histogram of age/ }).waitFor();
      await age.getByRole('img', { name: /^Values of age: 4521 values, \d+ distinct, 0 missing/ }).waitFor();
      for (const stat of ['minimum', 'lower-quartile', 'median', 'upper-quartile', 'maximum']) await age.getByTestId(`stat-${stat}`).waitFor();

      const job = card(page, 'job');
      await job.getByRole('img', { name: /^Most frequent values of job: management \d+/ }).waitFor();
      await shot(page, 'statistics');
      await bothSizes(page, 'journey-details-statistics');

      // Each chart's numbers as a table, by keyboard.
      await job.getByRole('button', { name: 'Show as table: Most frequent values of job' }).focus();
      await page.keyboard.press('Enter');
      const table = job.getByRole('table', { name: 'Most frequent values of job' });
      await table.waitFor();
      const jobs = await table.locator('tbody tr td:first-child').allTextContents();
      expect(jobs.slice(0, 2)).toEqual(['management', 'blue-collar']);
      expect(jobs.at(-1)).toBe('(all other values)');
      await age.getByRole('button', { name: 'Show as table: Histogram of age' }).click();
      const bins = age.getByRole('table', { name: 'Histogram of age' }).locator('tbody tr');
      await bins.first().waitFor();
      const counts = (await bins.locator('td:last-child').allTextContents()).map((c) => Number(c.replace(/,/g, '')));
      expect(counts.reduce((a, c) => a + c, 0)).toBe(4521);
      await shot(page, 'statistics-tables');
      await bothSizes(page, 'journey-details-statistics-tables');
    });

    it('an account without a grant: no histogram of a near-unique column, no most frequent value of fewer than 10 rows', async () => {
      await openTab(otherPage, ids.gdp, 'Statistics');
      const value = card(otherPage, 'Value');
      await value.getByTestId('no-distribution').getByText('Its distribution is shown only to those who may download the data.').waitFor();
      expect(await value.getByRole('img', { name: /^Histogram/ }).count()).toBe(0);
      await otherPage.getByTestId('statistics-withheld').waitFor();
      // The year is shared by many rows: its histogram shows.
      const year = card(otherPage, 'Year');
      await year.getByRole('img', { name: /^Histogram of Year/ }).waitFor();
      // Years read as years.
      expect(await year.getByTestId('stat-minimum').textContent()).toBe('1960');
      await shot(otherPage, 'no-grant');
      await bothSizes(otherPage, 'journey-details-no-grant');

      await openTab(otherPage, ids.bank, 'Statistics');
      const job = card(otherPage, 'job');
      await job.getByRole('button', { name: 'Show as table: Most frequent values of job' }).click();
      const rows = job.getByRole('table', { name: 'Most frequent values of job' }).locator('tbody tr');
      await rows.first().waitFor();
      const counts = (await rows.locator('td:last-child').allTextContents()).slice(0, -1).map((c) => Number(c.replace(/,/g, '')));
      expect(counts.every((c) => c >= 10)).toBe(true);
      // The owner's record data is not theirs: no Download, a Request.
      expect(await otherPage.getByRole('button', { name: 'Download', exact: true }).count()).toBe(0);
      await otherPage.getByRole('button', { name: 'Request', exact: true }).waitFor();
    });
  },
);
