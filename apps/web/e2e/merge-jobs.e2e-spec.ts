import { readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Browser, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type SignedIn, startRealProduct, type RealProduct } from './real-product';

/** One owner's linkage key: the same values hash equally in both records (base64url, 32 bytes). */
const LINKAGE_KEY = Buffer.alloc(32, 42).toString('base64url');

type Row = Record<string, string>;
const parseCsv = (text: string): { fields: string[]; rows: Row[] } => {
  const parsed = Papa.parse<Row>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return { fields: parsed.meta.fields ?? [], rows: parsed.data };
};

/** The inner join of gdp and population on Country Code and Year, computed here, apart from the product. */
function innerJoin(gdp: Row[], population: Row[]): string[] {
  const byKey = new Map<string, Row[]>();
  for (const row of population) {
    const key = `${row['Country Code']}|${row.Year}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const joined: string[] = [];
  for (const left of gdp) {
    for (const right of byKey.get(`${left['Country Code']}|${left.Year}`) ?? []) {
      joined.push(JSON.stringify([left['Country Name'], left['Country Code'], left.Year, left.Value, right['Country Name'], right.Value]));
    }
  }
  return joined.sort();
}

/**
 * Issue 11's story in the browser against the real product in embedded mode: gdp.csv and
 * population.csv go into the work area, Scan to Merge proposes Country Code and Year, Merge
 * Horizontal starts a job, the Jobs page shows it running then "Status: Complete", and the new
 * record's file holds exactly the inner join computed here.
 */
describeInfra('merge jobs end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(420_000);
  let product: RealProduct;
  let browser: Browser;
  let page: Page;
  let ana: SignedIn;
  const ids: Record<string, string> = {};

  async function upload(file: string, hashed?: { name: string; columns: string[] }): Promise<string> {
    const form = new FormData();
    form.append('extractOption', 'metadata');
    if (hashed) {
      form.append('name', hashed.name);
      // The same files again, this time with hashed columns.
      form.append('allowDuplicate', 'true');
      form.append('encryptList', JSON.stringify(hashed.columns));
      form.append('linkageKey', LINKAGE_KEY);
    }
    form.append('file', new Blob([readFileSync(path.join(DATASETS, file))], { type: 'text/csv' }), path.basename(file));
    const response = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${ana.token}` }, body: form });
    if (response.status !== 201) throw new Error(`upload ${file}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    product = await startRealProduct('merge-jobs');
    ana = await founder(product, 'ana', 'merging is joining 42');
    ids.gdp = await upload('csv/gdp.csv');
    ids.population = await upload('csv/population.csv');
    // Extraction and the relations projection run in the background: the scan proposes pairs once both are read.
    await eventually(async () => {
      const response = await apiCall(product, ana.token, 'POST', '/api/relations/get-merge-relations/', { records: [ids.gdp, ids.population] });
      expect(response.status).toBe(200);
      const { merge_relations } = (await response.json()) as { merge_relations: Array<{ header_left: string }> };
      expect(merge_relations.map((m) => m.header_left)).toEqual(expect.arrayContaining(['Country Code', 'Year']));
    }, 180_000);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 950 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), ana.token);
    // Every progress bar the page ever shows is noted, however briefly it shows.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        document.querySelectorAll('[data-testid="job-progress"]').forEach((bar) => seen.push(bar.textContent ?? ''));
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const card = (id: string) => page.getByTestId(`record-card-${id}`);
  const area = () => page.getByTestId('work-area');

  it('merges gdp and population horizontally on Country Code and Year through the work area, the scan and a job', async () => {
    await page.goto(`${product.base}/#/records`);
    await card(ids.gdp).waitFor();
    await card(ids.gdp).dragTo(area());
    await card(ids.population).dragTo(area());
    await eventually(async () => expect(await area().getByRole('listitem').count()).toBe(2));
    await saveScreenshot(page, 'merge-jobs-work-area');

    await area().getByRole('button', { name: 'Scan to Merge' }).click();
    const results = page.getByTestId('merge-scan-results');
    await results.waitFor({ timeout: 60_000 });
    const candidates = results.getByRole('table', { name: 'Merge candidates' });
    await candidates.getByRole('checkbox', { name: 'Choose Country Code and Country Code' }).check();
    await candidates.getByRole('checkbox', { name: 'Choose Year and Year' }).check();
    await saveScreenshot(page, 'merge-jobs-scan-results');
    await results.getByRole('button', { name: 'Merge Horizontal' }).click();
    await page.getByTestId('merge-preview').getByRole('button', { name: 'Start merge' }).click();
    await page.getByText('New merge job was successfully initiated.').waitFor();

    await page.goto(`${product.base}/#/jobs`);
    const job = page.getByRole('listitem', { name: /^MERGE job / });
    await job.waitFor({ timeout: 30_000 });
    // Whether the jobs page was told of a running job: a small merge on a quiet machine can end
    // before any poll finds it running, and then no progress bar can have been shown. Only answers
    // the jobs page receives count: one the work area got as the page was left need not have been drawn.
    let toldOfRunningJob = false;
    page.on('response', async (response) => {
      if (!response.url().includes('/api/tasks/jobs-list')) return;
      const body = (await response.json().catch(() => null)) as { results?: Array<{ is_active: boolean }> } | null;
      if (body?.results?.some((listed) => listed.is_active)) toldOfRunningJob = true;
    });
    const shown = await job.getByTestId('job-progress').isVisible();
    if (shown) await saveScreenshot(page, 'merge-jobs-running');
    // Polled every 10 s while it runs.
    await job.getByText('Status: Complete').waitFor({ timeout: 180_000 });
    await saveScreenshot(page, 'merge-jobs-complete');
    const progressSeen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    if (toldOfRunningJob) expect(progressSeen.length).toBeGreaterThan(0);
    else console.log('merge-jobs e2e: the job ended before the page saw it running; no progress bar to check');
    expect(await job.getByTestId('job-info').textContent()).toContain('gdp.csv and population.csv');

    // The new record: the job's result, a record of ana's whose file is the merged CSV.
    const jobId = ((await job.getAttribute('data-testid')) ?? '').replace(/^job-/, '');
    const content = (await (await apiCall(product, ana.token, 'POST', '/api/tasks/job-content/', { job: jobId })).json()) as {
      content: { result_record_id: string };
    };
    const recordId = content.content.result_record_id;
    expect(recordId).toBeTruthy();
    await job.getByRole('link', { name: 'Merged record' }).click();
    await page.waitForURL(`**/#/records/${recordId}`);
    await saveScreenshot(page, 'merge-jobs-result-record');
    const record = (await (await apiCall(product, ana.token, 'GET', `/api/records/${recordId}`)).json()) as { download_url: string; is_owner: boolean };
    expect(record.is_owner).toBe(true);
    const download = new URL(record.download_url, product.base);
    const link = (await (await apiCall(product, ana.token, 'GET', download.pathname + download.search)).json()) as { url: string };
    const merged = parseCsv(await (await fetch(new URL(link.url, product.base))).text());

    const gdp = parseCsv(readFileSync(path.join(DATASETS, 'csv/gdp.csv'), 'utf8')).rows;
    const population = parseCsv(readFileSync(path.join(DATASETS, 'csv/population.csv'), 'utf8')).rows;
    const expected = innerJoin(gdp, population);
    expect(expected.length).toBeGreaterThan(1000);
    // Every column of the left side, then the right side's other columns (named after their record where they clash); values as written.
    expect(merged.fields).toEqual(['Country Name', 'Country Code', 'Year', 'Value', 'Country Name (population.csv)', 'Value (population.csv)']);
    const actual = merged.rows.map((row) => JSON.stringify(merged.fields.map((field) => row[field]))).sort();
    expect(actual.length).toBe(expected.length);
    expect(actual).toEqual(expected);
  });

  it('links two records on their hashed columns with Link Datasets, shows the result and merges from it', async () => {
    const columns = ['Country Code', 'Year'];
    ids.gdpHashed = await upload('csv/gdp.csv', { name: 'gdp hashed', columns });
    ids.populationHashed = await upload('csv/population.csv', { name: 'population hashed', columns });
    // The cards carry enc_headers once extraction has described the hashed columns.
    await eventually(async () => {
      const list = (await (await apiCall(product, ana.token, 'GET', '/api/records/?view=own&page_size=100')).json()) as {
        results: Array<{ id: string; enc_headers: string[] }>;
      };
      for (const id of [ids.gdpHashed, ids.populationHashed])
        expect(list.results.find((r) => r.id === id)?.enc_headers).toEqual(expect.arrayContaining(columns));
    }, 180_000);

    await page.goto(`${product.base}/#/records`);
    await card(ids.gdpHashed).waitFor();
    const clear = area().getByRole('button', { name: 'Clear' });
    if (await clear.isEnabled()) await clear.click();
    await card(ids.gdpHashed)
      .getByRole('button', { name: /^Process/ })
      .click();
    expect(await area().getByRole('button', { name: 'Link Datasets' }).isDisabled()).toBe(true);
    await card(ids.populationHashed).getByRole('button', { name: 'Link record' }).click();
    await eventually(async () => expect(await area().getByRole('listitem').count()).toBe(2));
    await area().getByRole('button', { name: 'Link Datasets' }).click();
    await page.getByText('New link job was successfully initiated.').waitFor();

    await page.goto(`${product.base}/#/jobs`);
    const job = page.getByRole('listitem', { name: /^LINK job / });
    await job.waitFor({ timeout: 30_000 });
    await job.getByText('Status: Complete').waitFor({ timeout: 180_000 });
    await job.getByRole('button', { name: /^Result/ }).click();
    const modal = page.getByTestId('link-result');
    await modal.getByRole('table', { name: 'Linked rows' }).waitFor();
    expect(await modal.getByRole('row').count()).toBeGreaterThan(1);
    expect(await modal.textContent()).toContain('gdp hashed');
    await saveScreenshot(page, 'merge-jobs-link-result');
    await modal.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByText('New merge job was successfully initiated.').waitFor();
    await eventually(async () => expect(await page.getByRole('listitem', { name: /^MERGE job / }).count()).toBe(2), 30_000);
  });
});
