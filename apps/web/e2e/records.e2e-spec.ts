import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeInfra, eventually, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { linkIn, newestMail, startRealProduct, type RealProduct } from './real-product';

const datasets = path.resolve(__dirname, '../../../../shared/datasets');
/** One file of each kind the catalogue extracts. */
const FILES = {
  csv: 'csv/co2-annmean-mlo.csv',
  xls: 'excel/wti-month.xls',
  xlsx: 'excel/Auto.xlsx',
  pdf: 'pdf/masculinity-survey.pdf',
  docx: 'docx/docx-tables.docx',
  hl7: 'hl7/001_ADT_A01.hl7',
  zip: 'zip/IndoorMovement.zip',
  txt: 'txt/Alaska_SOTS.txt',
} as const;

/**
 * The record screens against the real product in embedded mode: index each kind of file through
 * Add data → Index Files, see its details once extraction is done, edit a record, make it visible
 * to everyone and delete one with the confirmation.
 */
describeInfra('records screens end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(240_000);
  let product: RealProduct;
  let base: string;
  let browser: Browser;
  let page: Page;
  /** Record id per file kind. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    product = await startRealProduct('records-flow');
    base = product.base;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const user = { username: 'ada', email: 'ada@example.org', password: 'analytical engine 1843' };
  const field = (label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const hashOf = () => new URL(page.url()).hash;
  const token = () => page.evaluate(() => localStorage.getItem('dc.token') ?? sessionStorage.getItem('dc.token'));

  async function apiGet(url: string, auth: string | null) {
    return fetch(`${base}${url}`, { headers: auth ? { Authorization: `JWT ${auth}` } : {} });
  }

  /** Indexes the given files through the Index Files tab; answers the created records' ids in order. */
  async function indexFiles(relative: string[], expectPreview: boolean): Promise<string[]> {
    await page.goto(`${base}/#/indexdata`);
    await page.getByRole('tab', { name: 'Index Files' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(relative.map((file) => path.join(datasets, file)));
    if (expectPreview) await page.getByTestId('csv-preview').waitFor();
    else expect(await page.getByTestId('csv-preview').count()).toBe(0);
    await button('Index').click();
    const links = page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(relative.length), 120_000);
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => href.replace(/^#\/records\//, ''));
  }

  /** Opens a record's details and waits until the Working tab has gone. */
  async function openDetails(id: string) {
    await page.goto(`${base}/#/records/${id}`);
    await page.getByRole('tab', { name: 'Groups' }).waitFor();
    // The page polls every 3 s while extraction runs.
    await page.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 120_000 });
  }

  it('signs up, activates and logs in', async () => {
    await page.goto(`${base}/#/register`);
    await field('Username').fill(user.username);
    await field('Email').fill(user.email);
    await field('First name').fill('Ada');
    await field('Last name').fill('Lovelace');
    await field('Password').fill(user.password);
    await field('Confirm password').fill(user.password);
    await field('Description').fill('Notes on the analytical engine');
    await button('Sign Up').click();
    await page.getByText(`A registration email was sent to ${user.email}`, { exact: false }).waitFor();
    const link = linkIn(await newestMail(product, user.email, /activate/i));
    await page.goto(link);
    await page.getByText('Your account is activated. Please log in.').waitFor();
    await field('Username').fill(user.username);
    await field('Password').fill(user.password);
    await button('Login').click();
    await eventually(async () => expect(hashOf()).toBe('#/records'));
  });

  it('previews one CSV, indexes it and shows its headers and row count', async () => {
    const [id] = await indexFiles([FILES.csv], true);
    ids.csv = id;
    await saveScreenshot(page, 'records-indexed-csv');

    const text = readFileSync(path.join(datasets, FILES.csv), 'utf8');
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
    const headers = lines[0].split(',');
    // The preview showed the file's own header row.
    await openDetails(id);
    expect(await page.getByTestId('header-name').allTextContents()).toEqual(headers);
    expect(await page.getByTestId('file-total-rows').textContent()).toBe(String(lines.length - 1));
    expect(await page.getByTestId('record-owner').textContent()).toBe(user.username);
    expect(await page.getByTestId('record-size').textContent()).toMatch(/^\d+(\.\d+)? (Bytes|KB)$/);
    expect(await page.getByTestId('record-created').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await saveScreenshot(page, 'records-details-csv');

    await page.getByRole('tab', { name: 'Statistics' }).click();
    await eventually(async () => expect(await page.getByTestId('stats-card').count()).toBe(headers.length));
    expect(await page.getByRole('img', { name: 'Statistics of Mean' }).count()).toBe(1);
    await saveScreenshot(page, 'records-details-csv-statistics');
    await page.getByRole('tab', { name: 'Formatted Values' }).click();
    const formatted = page.getByRole('table', { name: 'Formatted values' });
    await formatted.waitFor();
    expect(await formatted.locator('tbody tr').count()).toBe(5);
    expect(await formatted.locator('tbody tr').first().locator('td').allTextContents()).toEqual(lines[1].split(','));
  });

  it('indexes one file of every other kind and shows each one’s details', async () => {
    const kinds = Object.keys(FILES).filter((kind) => kind !== 'csv') as (keyof typeof FILES)[];
    const created = await indexFiles(
      kinds.map((kind) => FILES[kind]),
      false,
    );
    kinds.forEach((kind, i) => (ids[kind] = created[i]));
    for (const kind of kinds) {
      await openDetails(ids[kind]);
      expect(await page.getByTestId('file-file').textContent()).toBe(path.basename(FILES[kind]));
      if (kind === 'xls' || kind === 'xlsx' || kind === 'hl7') expect(await page.getByTestId('header-name').count()).toBeGreaterThan(0);
      if (kind === 'pdf' || kind === 'docx' || kind === 'txt') {
        // Documents have words but no table: the Word Set tab shows, Statistics has no numbers.
        await page.getByRole('tab', { name: 'Word Set' }).waitFor();
        await page.getByRole('tab', { name: 'Statistics' }).click();
        await page.getByText('No numerical data could be extracted.').waitFor();
      }
      await saveScreenshot(page, `records-details-${kind}`);
    }
  });

  it('edits the description and makes the record visible to everyone', async () => {
    const id = ids.csv;
    expect((await apiGet(`/api/records/${id}/`, null)).status).toBe(404);
    await page.goto(`${base}/#/records/${id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/edit/${id}`));
    await field('Description').waitFor();
    await field('Description').fill('Annual mean CO2 at Mauna Loa');
    await page.locator('select[name="visibility"]').selectOption('CU');
    // The custom pickers: Add stays disabled until the text names a known organisation.
    const addOrganisation = page.getByRole('button', { name: 'Add organisations' });
    expect(await addOrganisation.isDisabled()).toBe(true);
    await saveScreenshot(page, 'records-edit-custom');
    await page.locator('select[name="visibility"]').selectOption('EV');
    await page.locator('select[name="access"]').selectOption('OP');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    await page.getByText('Annual mean CO2 at Mauna Loa').first().waitFor();
    expect(await page.getByTestId('record-visibility').textContent()).toBe('Everyone');
    expect(await page.getByTestId('record-access').textContent()).toBe('Open');
    // Open access: the owner's download button is red.
    await button('Download').waitFor();
    await saveScreenshot(page, 'records-after-edit');

    const anonymous = await apiGet(`/api/records/${id}/`, null);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({ description: 'Annual mean CO2 at Mauna Loa', visibility: 'EV', access: 'OP' });
  });

  it('deletes a record after the confirmation', async () => {
    const id = ids.txt;
    await page.goto(`${base}/#/records/${id}`);
    await button('Delete').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this record?').waitFor();
    await saveScreenshot(page, 'records-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => expect(hashOf()).toBe('#/records'));
    expect((await apiGet(`/api/records/${id}/`, await token())).status).toBe(404);
  });
});
