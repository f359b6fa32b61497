import { readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Browser, Locator, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type RealProduct, type SignedIn, startRealProduct } from './real-product';

/** One owner's linkage key: the same values hash equally in both records (base64url, 32 bytes). */
const LINKAGE_KEY = Buffer.alloc(32, 7).toString('base64url');

/** MERGE_MAX_ROWS of this product: above the join on Country Code and Year (13,979 rows), far below the join on Year alone. */
const MAX_ROWS = 20_000;

type Row = Record<string, string>;
const rowsOf = (file: string): Row[] =>
  Papa.parse<Row>(readFileSync(path.join(DATASETS, file), 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;

/** Rows of the inner join of gdp and population on Country Code and Year, counted here, apart from the product. */
function joinedRows(gdp: Row[], population: Row[]): number {
  const counts = new Map<string, number>();
  for (const row of population) counts.set(`${row['Country Code']}|${row.Year}`, (counts.get(`${row['Country Code']}|${row.Year}`) ?? 0) + 1);
  return gdp.reduce((sum, row) => sum + (counts.get(`${row['Country Code']}|${row.Year}`) ?? 0), 0);
}

/**
 * Issue 25, item 7, as a user walks it in the browser against the real product in embedded mode:
 * a merge shows what it will make (its name, columns and rows) before it starts, the result is named
 * by what was merged and how, its end is announced with a link to the new record (and a failed one
 * with its reason); Link Datasets on records naming their hashed columns differently lets the user
 * pair them (country_code with Country Code); the comparison computes every relation with one
 * button and says what its scores mean. Screenshots: journey-merging-*.
 */
describeInfra(
  'journey: merging and linking records (embedded product, a browser)',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(600_000);
    let product: RealProduct;
    let browser: Browser;
    let page: Page;
    let ana: SignedIn;
    const ids: Record<string, string> = {};
    const gdp = rowsOf('csv/gdp.csv');
    const population = rowsOf('csv/population.csv');

    async function upload(file: string, options: { name?: string; hashed?: string[]; rename?: [string, string] } = {}): Promise<string> {
      const form = new FormData();
      form.append('extractOption', 'metadata');
      if (options.name) form.append('name', options.name);
      if (options.hashed) {
        form.append('allowDuplicate', 'true');
        form.append('encryptList', JSON.stringify(options.hashed));
        form.append('linkageKey', LINKAGE_KEY);
      }
      let text = readFileSync(path.join(DATASETS, file), 'utf8');
      // The same data with a column named another way (only the header line changes).
      if (options.rename) text = text.replace(options.rename[0], options.rename[1]);
      form.append('file', new Blob([text], { type: 'text/csv' }), path.basename(file));
      const response = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${ana.token}` }, body: form });
      if (response.status !== 201) throw new Error(`upload ${file}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }

    /** The work area holding these records, as the cards' Process buttons would fill it. */
    async function workArea(records: Array<{ id: string; name: string; enc_headers?: string[] }>): Promise<Locator> {
      // What a card puts there besides: type, size and date, as the records list gives them.
      const listed = (await (await apiCall(product, ana.token, 'GET', '/api/records/?view=own&page_size=100')).json()) as {
        results: Array<{ id: string; type: string; size: number; date_changed: string }>;
      };
      const full = records.map((r) => {
        const found = listed.results.find((l) => l.id === r.id);
        return { ...r, type: found?.type, size: found?.size, date_changed: found?.date_changed };
      });
      await page.goto(`${product.base}/#/records`);
      await page.evaluate((value) => sessionStorage.setItem('dc.workArea', value), JSON.stringify(full));
      await page.reload();
      const area = page.getByTestId('work-area');
      await eventually(async () => expect(await area.getByRole('listitem').count()).toBe(records.length));
      return area;
    }

    async function accessibleAtBothSizes(name: string) {
      await expectAccessible(page, `${name} (1366x900)`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page, `${name} (390x844)`);
      await page.setViewportSize({ width: 1366, height: 900 });
    }

    async function scan(area: Locator): Promise<Locator> {
      await area.getByRole('button', { name: 'Scan to Merge' }).click();
      const results = page.getByTestId('merge-scan-results');
      await results.waitFor({ timeout: 60_000 });
      return results.getByRole('table', { name: 'Merge candidates' });
    }

    beforeAll(async () => {
      // Few rows a merge may make, so that a merge on Year alone (millions of rows) is stopped, and says why.
      product = await startRealProduct('journey-merging', { MERGE_MAX_ROWS: String(MAX_ROWS) });
      ana = await founder(product, 'ana', 'merging journeys 42');
      ids.gdp = await upload('csv/gdp.csv');
      ids.population = await upload('csv/population.csv');
      ids.gdpHashed = await upload('csv/gdp.csv', { name: 'gdp hashed', hashed: ['Country Code', 'Year'] });
      ids.populationCoded = await upload('csv/population.csv', {
        name: 'population coded',
        hashed: ['country_code', 'year'],
        rename: ['Country Name,Country Code,Year', 'Country Name,country_code,year'],
      });
      // Extraction and the relations projection run in the background: the scan proposes pairs once both are read.
      await eventually(async () => {
        const response = await apiCall(product, ana.token, 'POST', '/api/relations/get-merge-relations/', { records: [ids.gdp, ids.population] });
        const { merge_relations } = (await response.json()) as { merge_relations: Array<{ header_left: string }> };
        expect(merge_relations.map((m) => m.header_left)).toEqual(expect.arrayContaining(['Country Code', 'Year']));
      }, 240_000);
      await eventually(async () => {
        const list = (await (await apiCall(product, ana.token, 'GET', '/api/records/?view=own&page_size=100')).json()) as {
          results: Array<{ id: string; enc_headers: string[] }>;
        };
        expect(list.results.find((r) => r.id === ids.gdpHashed)?.enc_headers).toEqual(expect.arrayContaining(['Country Code', 'Year']));
        expect(list.results.find((r) => r.id === ids.populationCoded)?.enc_headers).toEqual(expect.arrayContaining(['country_code', 'year']));
      }, 240_000);
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), ana.token);
      page = await context.newPage();
    });

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    it('previews a horizontal merge (name, columns, estimated rows), starts it, and announces the named result with a link to it', async () => {
      const area = await workArea([
        { id: ids.gdp, name: 'gdp.csv' },
        { id: ids.population, name: 'population.csv' },
      ]);
      const candidates = await scan(area);
      await candidates.getByRole('checkbox', { name: 'Choose Country Code and Country Code' }).check();
      await candidates.getByRole('checkbox', { name: 'Choose Year and Year' }).check();
      await page.getByTestId('merge-scan-results').getByRole('button', { name: 'Merge Horizontal' }).click();

      const preview = page.getByTestId('merge-preview');
      const result = preview.getByTestId('merge-preview-result');
      await result.waitFor();
      const name = (await result.getByTestId('merge-preview-name').textContent()) ?? '';
      expect(name).toMatch(/^(gdp\.csv joined with population\.csv|population\.csv joined with gdp\.csv) on (Country Code, Year|Year, Country Code)$/);
      const columns = await preview
        .getByRole('list', { name: `Columns of ${name}` })
        .getByRole('listitem')
        .allTextContents();
      expect(columns).toHaveLength(6);
      expect(columns.slice(0, 4)).toEqual(['Country Name', 'Country Code', 'Year', 'Value']);
      expect(columns.slice(4).every((c) => / \((gdp|population)\.csv\)$/.test(c))).toBe(true);
      // The estimate from the columns' sketches, against the join counted here.
      const rowsText = (await result.getByTestId('merge-preview-rows').textContent()) ?? '';
      const estimate = Number(/^Rows: about ([\d,]+) \(estimated\)$/.exec(rowsText)?.[1].replace(/,/g, ''));
      const actual = joinedRows(gdp, population);
      expect(estimate).toBeGreaterThan(actual / 2);
      expect(estimate).toBeLessThan(actual * 2);
      await saveScreenshot(page, 'journey-merging-preview');
      await accessibleAtBothSizes('merge preview');

      await preview.getByRole('button', { name: 'Start merge' }).click();
      await page.getByText('New merge job was successfully initiated.').first().waitFor();
      await preview.waitFor({ state: 'detached' });
      // Announced in the work area when it ends: its name, and a link to the new record.
      const finished = page.getByRole('status', { name: 'Finished jobs' });
      await finished.getByText(`Merge finished: ${name}`, { exact: true }).waitFor({ timeout: 240_000 });
      await saveScreenshot(page, 'journey-merging-finished');
      await accessibleAtBothSizes('merge finished');
      await finished.getByRole('link', { name: `Open ${name}` }).click();
      await page.waitForURL(/#\/records\/[0-9a-f-]{36}$/);
      const recordId = page.url().split('/').pop()!;
      const record = (await (await apiCall(product, ana.token, 'GET', `/api/records/${recordId}/`)).json()) as { name: string; is_owner: boolean };
      expect(record).toMatchObject({ name, is_owner: true });
    });

    it('previews a vertical merge as the one column it keeps and the rows of both records, and does not start it on Close', async () => {
      const area = await workArea([
        { id: ids.gdp, name: 'gdp.csv' },
        { id: ids.population, name: 'population.csv' },
      ]);
      const candidates = await scan(area);
      await candidates.getByRole('checkbox', { name: 'Choose Year and Year' }).check();
      await page.getByTestId('merge-scan-results').getByRole('button', { name: 'Merge Vertical' }).click();
      const preview = page.getByTestId('merge-preview');
      const result = preview.getByTestId('merge-preview-result');
      await result.waitFor();
      expect(await result.getByTestId('merge-preview-name').textContent()).toMatch(/^(gdp|population)\.csv stacked with (gdp|population)\.csv \(Year\)$/);
      expect(await result.getByTestId('merge-preview-column-count').textContent()).toBe('Columns: 1');
      expect(await result.getByTestId('merge-preview-rows').textContent()).toBe(`Rows: ${(gdp.length + population.length).toLocaleString('en')}`);
      await saveScreenshot(page, 'journey-merging-preview-vertical');
      const jobsBefore = (await (await apiCall(product, ana.token, 'POST', '/api/tasks/jobs-list/', {})).json()) as { count: number };
      await preview.getByRole('button', { name: 'Close', exact: true }).click();
      await preview.waitFor({ state: 'detached' });
      const jobsAfter = (await (await apiCall(product, ana.token, 'POST', '/api/tasks/jobs-list/', {})).json()) as { count: number };
      expect(jobsAfter.count).toBe(jobsBefore.count);
    });

    it('warns before a merge that passes the rows a merge may make, and announces the failed merge with its reason', async () => {
      const area = await workArea([
        { id: ids.gdp, name: 'gdp.csv' },
        { id: ids.population, name: 'population.csv' },
      ]);
      const candidates = await scan(area);
      await candidates.getByRole('checkbox', { name: 'Choose Year and Year' }).check();
      await page.getByTestId('merge-scan-results').getByRole('button', { name: 'Merge Horizontal' }).click();
      const preview = page.getByTestId('merge-preview');
      // Every year of one record meets every row of that year in the other: millions of rows.
      const rowsText = (await preview.getByTestId('merge-preview-rows').textContent()) ?? '';
      expect(Number(/about ([\d,]+)/.exec(rowsText)?.[1].replace(/,/g, ''))).toBeGreaterThan(1_000_000);
      await preview
        .getByText(`Estimated at more than ${MAX_ROWS.toLocaleString('en')} rows, the most a merge may make: the merge would be stopped.`, { exact: false })
        .waitFor();
      await saveScreenshot(page, 'journey-merging-preview-too-large');
      await preview.getByRole('button', { name: 'Start merge' }).click();
      const finished = page.getByRole('status', { name: 'Finished jobs' });
      await finished
        .getByText(`Merge failed: The merge was stopped: its result would have more than ${MAX_ROWS.toLocaleString('en')} rows`, { exact: false })
        .waitFor({ timeout: 240_000 });
      await saveScreenshot(page, 'journey-merging-failed');
    });

    it('links two records whose hashed columns are named differently by pairing the columns in a dialog', async () => {
      const area = await workArea([
        { id: ids.gdpHashed, name: 'gdp hashed', enc_headers: ['Country Code', 'Year'] },
        { id: ids.populationCoded, name: 'population coded', enc_headers: ['country_code', 'year'] },
      ]);
      await area.getByRole('button', { name: 'Link Datasets' }).click();
      const dialog = page.getByTestId('link-columns');
      await dialog.getByRole('heading', { name: 'Link Datasets: pair the columns' }).waitFor();
      // No hashed column named alike; offered by their names read loosely: Country Code with country_code, Year with year.
      const countryCode = dialog.getByLabel('Country Code (gdp hashed) pairs with');
      expect(await countryCode.inputValue()).toBe('country_code');
      expect(await dialog.getByLabel('Year (gdp hashed) pairs with').inputValue()).toBe('year');
      await saveScreenshot(page, 'journey-merging-link-columns');
      await accessibleAtBothSizes('link columns');
      // Nothing paired says what is missing, where the button is.
      await countryCode.selectOption({ label: 'Not used for linking' });
      await dialog.getByLabel('Year (gdp hashed) pairs with').selectOption({ label: 'Not used for linking' });
      await dialog.getByRole('button', { name: 'Link on these columns' }).click();
      await dialog.getByRole('alert').getByText('Pair at least one column of each record to link them.').waitFor();
      await countryCode.selectOption('country_code');
      await dialog.getByLabel('Year (gdp hashed) pairs with').selectOption('year');
      await dialog.getByRole('button', { name: 'Link on these columns' }).click();
      await page.getByText('New link job was successfully initiated.').first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      const finished = page.getByRole('status', { name: 'Finished jobs' });
      await finished.getByText('Link finished: gdp hashed and population coded', { exact: true }).waitFor({ timeout: 240_000 });
      await finished.getByRole('link', { name: 'See the linked rows in Backend Jobs' }).click();
      const job = page.getByRole('listitem', { name: /^LINK job / });
      await job.getByText('Status: Complete').waitFor({ timeout: 60_000 });
      await job.getByRole('button', { name: /^Result/ }).click();
      const modal = page.getByTestId('link-result');
      await modal.getByRole('table', { name: 'Linked rows' }).waitFor();
      expect(await modal.getByRole('row').count()).toBeGreaterThan(1);
      expect(await modal.textContent()).toContain('Country Code = country_code');
    });

    it('computes every relation with Compute all and explains NRMSD and the scores in plain words', async () => {
      const area = await workArea([
        { id: ids.gdp, name: 'gdp.csv' },
        { id: ids.population, name: 'population.csv' },
      ]);
      await area.getByRole('button', { name: 'Compare' }).click();
      const dialog = page.getByTestId('compare-dialog');
      await dialog.getByRole('button', { name: 'Compute all' }).click();
      for (const [section, shown] of [
        ['relation-semantics', /Semantic score \d\.\d\d/],
        ['relation-structures', /Structural score \d\.\d\d/],
        ['relation-joining', /Join score \d\.\d\d/],
        ['relation-linkability', /Link score \d\.\d\d/],
      ] as const)
        await eventually(async () => expect(await dialog.getByTestId(section).textContent()).toMatch(shown), 60_000);
      await dialog.getByTestId('relation-statistics').getByRole('table', { name: 'NRMSD between columns' }).waitFor();
      expect(await dialog.getByTestId('relation-statistics').getByTestId('relation-explanation').textContent()).toMatch(
        /^NRMSD: how far apart the values of two numeric columns are, relative to the range of the first; 0 means identical/,
      );
      expect(await dialog.getByTestId('relation-joining').getByTestId('relation-explanation').textContent()).toMatch(/^Join score: /);
      await saveScreenshot(page, 'journey-merging-compare-all');
      await accessibleAtBothSizes('compare all');
    });
  },
);
