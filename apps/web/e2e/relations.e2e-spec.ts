import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type SignedIn, startRealProduct, type RealProduct } from './real-product';

/**
 * The relations screens against the real product in embedded mode: records indexed through the
 * API, then in the browser the work area (drag a card in, Process, Clear), the comparison modal
 * (each relation on demand), Scan to Merge with its results panel, the table's Match, the Word Set's
 * definition modal and "Joinable with" on the record page.
 */
describeInfra('relations screens end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(300_000);
  let product: RealProduct;
  let browser: Browser;
  let page: Page;
  let ana: SignedIn;
  const ids: Record<string, string> = {};

  async function upload(file: string, extractOption = 'metadata'): Promise<string> {
    const form = new FormData();
    form.append('extractOption', extractOption);
    form.append('file', new Blob([readFileSync(path.join(DATASETS, file))], { type: 'text/csv' }), path.basename(file));
    const response = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${ana.token}` }, body: form });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    product = await startRealProduct('relations-flow');
    ana = await founder(product, 'ana', 'relations are everywhere 42');
    // With samples, so its META keeps the columns' word sets (under metadata a table shows no cell's words).
    ids.gdp = await upload('csv/gdp.csv', 'samples');
    ids.population = await upload('csv/population.csv');
    ids.co2 = await upload('csv/co2-annmean-gl.csv');
    // Extraction runs in the background; relations has the sketches once structures answers with types.
    await eventually(async () => {
      const response = await apiCall(product, ana.token, 'GET', `/api/relations/structures/?record1=${ids.gdp}&record2=${ids.population}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { struct_types: unknown[] }).struct_types.length).toBeGreaterThan(0);
      const co2 = await apiCall(product, ana.token, 'GET', `/api/relations/structures/?record1=${ids.co2}&record2=${ids.population}`);
      expect(((await co2.json()) as { struct_types: unknown[] }).struct_types.length).toBeGreaterThan(0);
    }, 120_000);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 950 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), ana.token);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const button = (name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });
  const card = (id: string) => page.getByTestId(`record-card-${id}`);
  const area = () => page.getByTestId('work-area');

  it('fills the work area by dragging a card and with Process, then compares exactly two records', async () => {
    await page.goto(`${product.base}/#/records`);
    await card(ids.gdp).waitFor();
    await expect(area().getByText('Drag records here', { exact: false }).count()).resolves.toBe(1);
    await card(ids.gdp).dragTo(area());
    await eventually(async () => expect(await area().getByTestId('work-area-list').getByText('gdp.csv').count()).toBe(1));
    await card(ids.population)
      .getByRole('button', { name: /^Process/ })
      .click();
    await eventually(async () => expect(await area().getByRole('listitem').count()).toBe(2));
    await expectAccessible(page, 'relations-work-area');

    await area().getByRole('button', { name: 'Compare' }).click();
    const dialog = page.getByTestId('compare-dialog');
    await dialog.waitFor();
    const joining = dialog.getByTestId('relation-joining');
    await joining.getByRole('button', { name: 'Compute' }).click();
    await joining.getByText('Joinable', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await joining.getByRole('table', { name: 'Matching headers' }).getByText('Country Code').count()).toBeGreaterThan(0);
    const statistics = dialog.getByTestId('relation-statistics');
    await statistics.getByRole('button', { name: 'Compute' }).click();
    await statistics.getByRole('table', { name: 'NRMSD between columns' }).waitFor();
    // NRMSD to 6 decimals.
    expect(await statistics.getByRole('table').textContent()).toMatch(/\d\.\d{6}/);
    const semantics = dialog.getByTestId('relation-semantics');
    await semantics.getByLabel('Minimum similarity').fill('0.8');
    await semantics.getByLabel('Maximum similarity').fill('0.2');
    await semantics.getByText('Unexpected range setting: Maximum cannot be less than minimum').waitFor();
    await semantics.getByLabel('Maximum similarity').fill('1');
    await semantics.getByRole('button', { name: 'Compute' }).click();
    await semantics.getByRole('table', { name: 'Similar words' }).waitFor();
    const linkability = dialog.getByTestId('relation-linkability');
    await linkability.getByRole('button', { name: 'Compute' }).click();
    await linkability.getByRole('table', { name: 'Row pairs' }).waitFor({ timeout: 60_000 });
    await saveScreenshot(page, 'relations-compare-modal');
    await expectAccessible(page, 'relations-compare-modal');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
  });

  it('scans the work area for merges and shows the Merge Scan Results panel instead of the list', async () => {
    await card(ids.co2)
      .getByRole('button', { name: /^Process/ })
      .click();
    await eventually(async () => expect(await area().getByRole('listitem').count()).toBe(3));
    expect(await area().getByRole('button', { name: 'Compare' }).isDisabled()).toBe(true);
    await area().getByRole('button', { name: 'Scan to Merge' }).click();
    const results = page.getByTestId('merge-scan-results');
    await results.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('records-grid').count()).toBe(0);
    expect(await results.getByTestId('merge-candidate').count()).toBeGreaterThan(0);
    expect(await results.getByRole('table', { name: 'Merge candidates' }).getByText('Country Code').count()).toBeGreaterThan(0);
    await results.getByTestId('linking-columns').waitFor();
    await saveScreenshot(page, 'relations-merge-scan-results');
    await expectAccessible(page, 'relations-merge-scan-results');
    await results.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('records-grid').waitFor();
    await area().getByRole('button', { name: 'Clear' }).click();
    await eventually(async () => expect(await area().getByRole('listitem').count()).toBe(0));
  });

  it("opens the comparison modal from the table view's Match", async () => {
    await page.getByRole('button', { name: 'Table' }).click();
    await page.getByRole('checkbox', { name: 'Select gdp.csv' }).check();
    await page.getByRole('checkbox', { name: 'Select population.csv' }).check();
    await button('Match').click();
    const dialog = page.getByTestId('compare-dialog');
    await dialog.waitFor();
    const structures = dialog.getByTestId('relation-structures');
    await structures.getByRole('button', { name: 'Compute' }).click();
    await structures.getByRole('table', { name: 'Columns sharing data types' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: 'Grid' }).click();
  });

  it('defines a Word Set word and lists the records joinable with this one', async () => {
    await page.goto(`${product.base}/#/records/${ids.gdp}`);
    await page.getByRole('tab', { name: 'Word Set' }).click();
    const word = page.getByRole('button', { name: /^Define / }).first();
    const text = (await word.textContent()) ?? '';
    await word.click();
    const modal = page.getByTestId('word-definition');
    await modal.waitFor();
    await eventually(async () =>
      expect((await modal.getByRole('listitem').count()) + (await modal.getByText('Could not load additional information on term...').count())).toBeGreaterThan(
        0,
      ),
    );
    expect(await modal.getByText(text, { exact: true }).count()).toBeGreaterThan(0);
    await saveScreenshot(page, 'relations-word-definition');
    await expectAccessible(page, 'relations-word-definition');
    await modal.getByRole('button', { name: 'Close' }).first().click();
    const joinable = page.getByTestId('joinable-with');
    await joinable.getByRole('link', { name: 'population.csv' }).waitFor();
    await saveScreenshot(page, 'relations-joinable-with');
    await expectAccessible(page, 'relations-joinable-with');
  });
});
