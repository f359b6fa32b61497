import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { describeInfra, eventually, isChromiumInstalled, saveScreenshot } from '@dc/testing';
import { browserTabs, seedStorageOnce } from './browser-tabs';
import { ensureWebBuild, sendJson, startWebServer, type WebServer } from './web-server';

const TOKEN = 'jobs-token';
const user = {
  id: 1,
  username: 'jo',
  first_name: 'Jo',
  last_name: 'Tester',
  email: 'jo@example.org',
  permissions: [],
  organisation: 1,
  organisation_details: { id: 1, name: 'Test Org', email: 'org@example.org', description: '' },
  client_type: 'STANDARD',
  groups: [1, 2, 3],
};

interface FakeJob {
  job_id: string;
  type: 'LINK' | 'MERGE';
  progress: { current: number; total: number };
  info: string;
  is_active: boolean;
  status: 'active' | 'complete';
  failed: boolean;
  created: string;
  completed: string | null;
  content: Record<string, unknown>;
}

function job(id: string, type: 'LINK' | 'MERGE', overrides: Partial<FakeJob> = {}): FakeJob {
  return {
    job_id: id,
    type,
    progress: { current: 4, total: 4 },
    info: `${type === 'LINK' ? 'Link' : 'Merge'} of gdp.csv and population.csv.`,
    is_active: false,
    status: 'complete',
    failed: false,
    created: '2026-11-25T03:00:00.000Z',
    completed: '2026-11-25T03:01:00.000Z',
    content: {
      record_left_name: 'gdp.csv',
      record_left_id: 'rec-gdp',
      record_right_name: 'population.csv',
      record_right_id: 'rec-pop',
      result_record_id: null,
      tot_rows: { left: 3, right: 4 },
      total_matches: 0,
    },
    ...overrides,
  };
}

/**
 * The Jobs page and the work area's running jobs in chromium against a scripted jobs API: its
 * states (loading, empty, error), polling every 10 s only while a job is active (on the browser's
 * clock), Delete's two outcomes, the linking result modal (rows, no links, a removed record, its
 * merge button) and keyboard use. The real backend's story is in merge-jobs.e2e-spec.ts.
 */
describeInfra('jobs screens in chromium (scripted API)', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(120_000);
  let server: WebServer;
  const tabs = browserTabs();
  // What the fake API answers, set per test.
  let jobs: FakeJob[] | 'error' = [];
  let deleteFails = false;
  const calls: Array<{ path: string; body: unknown }> = [];

  beforeAll(async () => {
    ensureWebBuild();
    server = await startWebServer((request: IncomingMessage, body, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      // The Workspace behind the work area lists nothing.
      if (url.pathname === '/api/recordsannon/' || url.pathname === '/api/records/')
        return sendJson(response, 200, { count: 0, next: null, previous: null, results: [] });
      if (request.headers.authorization !== `JWT ${TOKEN}`) return sendJson(response, 401, { detail: 'Authentication credentials were not provided.' });
      const parsed: unknown = body ? JSON.parse(body) : undefined;
      calls.push({ path: url.pathname, body: parsed });
      const jobId = (parsed as { job?: string } | undefined)?.job;
      switch (url.pathname) {
        case '/api/account/user-account/':
          return sendJson(response, 200, user);
        case '/api/tasks/jobs-list/': {
          if (jobs === 'error') return sendJson(response, 500, { detail: 'Internal server error.' });
          const active = (parsed as { active_flag?: boolean }).active_flag === true;
          const results = jobs.filter((j) => !active || j.is_active).map((j) => ({ ...j, content: { ...j.content, matches: undefined } }));
          return sendJson(response, 200, {
            count: results.length,
            next: null,
            previous: null,
            results,
            ...(results.length ? {} : { message: 'No jobs were found.' }),
          });
        }
        case '/api/tasks/job-content/': {
          const found = jobs !== 'error' && jobs.find((j) => j.job_id === jobId);
          return found ? sendJson(response, 200, found) : sendJson(response, 404, { detail: 'Not found.' });
        }
        case '/api/tasks/job-delete/':
          if (deleteFails || jobs === 'error') return sendJson(response, 404, { detail: 'Job delete failed.' });
          jobs = jobs.filter((j) => j.job_id !== jobId);
          return sendJson(response, 200, { detail: 'Job deleted.' });
        case '/api/relations/get-merge-relations/':
          return sendJson(response, 200, {
            records: [
              { id: 'rec-gdp', name: 'gdp.csv' },
              { id: 'rec-pop', name: 'population.csv' },
            ],
            merge_relations: [
              {
                id: 'm1',
                record_left: 'rec-gdp',
                record_left_name: 'gdp.csv',
                record_right: 'rec-pop',
                record_right_name: 'population.csv',
                header_left: 'Country Code',
                header_right: 'Country Code',
                total_sim: 0.97,
              },
              {
                id: 'm2',
                record_left: 'rec-gdp',
                record_left_name: 'gdp.csv',
                record_right: 'rec-pop',
                record_right_name: 'population.csv',
                header_left: 'Year',
                header_right: 'Year',
                total_sim: 0.912,
              },
            ],
            linking_columns: [],
            messages: [],
          });
        case '/api/relations/merge-features/':
          return (parsed as { merge_type?: string }).merge_type === 'vertical'
            ? sendJson(response, 200, {
                nodata: false,
                nottabular: true,
                nomatches: false,
                newmerges: [],
                messages: ['Some data cannot be merged. Please try tabular data like CSVs, XLS, Data Tables instead.'],
              })
            : sendJson(response, 200, {
                nodata: false,
                nottabular: false,
                nomatches: false,
                newmerges: [{ job_id: 'job-new' }],
                messages: ['New merge job was successfully initiated.'],
              });
        case '/api/relations/merge-preview/': {
          const vertical = (parsed as { merge_type?: string }).merge_type === 'vertical';
          return sendJson(response, 200, {
            previews: [
              {
                record_left: 'rec-gdp',
                record_left_name: 'gdp.csv',
                record_right: 'rec-pop',
                record_right_name: 'population.csv',
                merge_type: vertical ? 'vertical' : 'horizontal',
                name: vertical ? 'gdp.csv stacked with population.csv (Country Code, Year)' : 'gdp.csv joined with population.csv on Country Code, Year',
                columns: vertical
                  ? ['Country Code', 'Year']
                  : ['Country Name', 'Country Code', 'Year', 'Value', 'Country Name (population.csv)', 'Value (population.csv)'],
                columns_complete: true,
                estimated_rows: vertical ? 31174 : 10121,
                rows_exact: vertical,
                can_start: true,
                note: null,
              },
            ],
            messages: [],
          });
        }
        case '/api/relations/link-records/':
          return sendJson(response, 200, {
            nodata: false,
            nottabular: false,
            nomatches: false,
            newmerges: [{ job_id: 'job-link-new' }],
            messages: ['New link job was successfully initiated.'],
          });
        case '/api/relations/merge-enc-cols/':
          return sendJson(response, 200, {
            nodata: false,
            nottabular: false,
            nomatches: false,
            newmerges: [{ job_id: 'job-new' }],
            messages: ['New merge job was successfully initiated.'],
          });
        default:
          return false;
      }
    });
    await tabs.launch();
  });

  afterAll(async () => {
    await tabs.close();
    await server?.close();
  });

  afterEach(async () => {
    deleteFails = false;
    calls.length = 0;
  });

  /** A tab on a fake clock (polling is driven by fast-forwarding it), signed in unless told, with records in the work area if given. */
  async function open(hash: string, options: { anonymous?: boolean; workArea?: unknown[] } = {}): Promise<Page> {
    const context = await tabs.newContext();
    await seedStorageOnce(context, {
      local: { 'dc.token': options.anonymous ? null : TOKEN },
      session: { 'dc.workArea': options.workArea ? JSON.stringify(options.workArea) : null },
    });
    // The time (on the page's clock) of every jobs-list call, to read the polling intervals whatever the machine's load.
    await context.addInitScript(() => {
      const times: number[] = [];
      (window as unknown as { jobsListTimes: number[] }).jobsListTimes = times;
      const original = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.includes('/api/tasks/jobs-list/')) times.push(Date.now());
        return original(input, init);
      };
    });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${server.url}#${hash}`);
    return page;
  }

  const listCalls = () => calls.filter((c) => c.path === '/api/tasks/jobs-list/').length;
  /** Gaps between the page's jobs-list calls, on its clock. */
  const pollGaps = async (page: Page) => {
    const times = await page.evaluate(() => (window as unknown as { jobsListTimes: number[] }).jobsListTimes);
    return times.slice(1).map((time, i) => time - times[i]);
  };
  const jobCard = (page: Page, id: string) => page.getByRole('listitem', { name: new RegExp(`job ${id}$`) });

  it('says so when there are no jobs, and when the jobs could not be loaded', async () => {
    jobs = [];
    let page = await open('/jobs');
    await page.getByText('No jobs history available', { exact: true }).waitFor();
    await tabs.context!.close();
    jobs = 'error';
    page = await open('/jobs');
    await page.getByRole('alert').getByText('No jobs were found.').waitFor();
    jobs = [];
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No jobs history available', { exact: true }).waitFor();
  });

  it("shows a running job's progress, polls every 10 s while it runs, then shows Status: Complete and stops polling", async () => {
    const running = job('job-merge-1', 'MERGE', { is_active: true, status: 'active', progress: { current: 1, total: 4 }, completed: null });
    jobs = [running, job('job-link-1', 'LINK', { content: { ...job('x', 'LINK').content, total_matches: 2 } })];
    const page = await open('/jobs');
    const card = jobCard(page, 'job-merge-1');
    await card.getByRole('progressbar').waitFor();
    expect(await card.getByText('25%').count()).toBe(1);
    expect(await card.textContent()).toContain('MERGE');
    expect(await card.textContent()).toContain('Merge of gdp.csv and population.csv.');
    expect(await card.textContent()).toMatch(/Active\s*Yes/);
    expect(await card.textContent()).toMatch(/Created\s*2026-11-25/);
    expect(await card.textContent()).toMatch(/Completed\s*N\/A/);
    expect(await jobCard(page, 'job-link-1').getByText('Status: Complete').count()).toBe(1);
    await saveScreenshot(page, 'jobs-page-running');

    running.progress = { current: 3, total: 4 };
    await page.clock.fastForward(10_500);
    await eventually(async () => expect(await card.getByText('75%').count()).toBe(1));

    Object.assign(running, { is_active: false, status: 'complete', progress: { current: 4, total: 4 }, completed: '2026-11-25T03:05:00.000Z' });
    await page.clock.fastForward(10_500);
    await card.getByText('Status: Complete').waitFor();
    expect(await card.getByRole('progressbar').count()).toBe(0);
    expect(await card.textContent()).toMatch(/Active\s*No/);
    // Nothing is active any more: the page stops asking.
    const settled = listCalls();
    await page.clock.fastForward(35_000);
    expect(listCalls()).toBe(settled);
    // Every 10 s, never sooner.
    const gaps = await pollGaps(page);
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(10_000);
    // Only LINK jobs have a Result.
    expect(await card.getByRole('button', { name: /^Result/ }).count()).toBe(0);
    expect(
      await jobCard(page, 'job-link-1')
        .getByRole('button', { name: /^Result/ })
        .count(),
    ).toBe(1);
    await saveScreenshot(page, 'jobs-page-complete');
  });

  it("opens a LINK job's result with the keyboard, lists the row pairs and merges the linked records", async () => {
    const matches = [
      { fieldsA: ['Country Code'], fieldsB: ['Country Code'], rowA: 0, rowB: 2, rows_match_prob: 1 },
      { fieldsA: ['Country Code'], fieldsB: ['Country Code'], rowA: 1, rowB: 0, rows_match_prob: 0.875 },
    ];
    jobs = [job('job-link-2', 'LINK', { content: { ...job('x', 'LINK').content, matches, total_matches: 2 } })];
    const page = await open('/jobs');
    const result = jobCard(page, 'job-link-2').getByRole('button', { name: /^Result/ });
    await result.focus();
    await page.keyboard.press('Enter');
    const modal = page.getByTestId('link-result');
    await modal.getByRole('table', { name: 'Linked rows' }).waitFor();
    expect(await modal.getByRole('row').count()).toBe(3);
    expect(await modal.textContent()).toContain('0.88');
    expect(await modal.textContent()).toContain('gdp.csv');
    await saveScreenshot(page, 'jobs-link-result');
    await modal.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByText('New merge job was successfully initiated.').waitFor();
    expect(calls.find((c) => c.path === '/api/relations/merge-enc-cols/')?.body).toEqual({
      record_left: 'rec-gdp',
      record_right: 'rec-pop',
      merge_type: 'horizontal',
    });
    await eventually(async () => expect(await modal.count()).toBe(0));
  });

  it('says when a link found nothing and when a source record was removed', async () => {
    jobs = [job('job-link-3', 'LINK', { content: { ...job('x', 'LINK').content, matches: [], record_right_removed: true } })];
    const page = await open('/jobs');
    await jobCard(page, 'job-link-3')
      .getByRole('button', { name: /^Result/ })
      .click();
    const modal = page.getByTestId('link-result');
    await modal.getByText('No links found between gdp.csv and population.csv').waitFor();
    expect(await modal.getByText('population.csv was removed from the product.').count()).toBe(1);
    expect(await modal.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true);
    // Escape once the dialog has opened as a user sees it: the focus inside and its opening animation
    // over. Pressed earlier on a loaded CI machine (twice in full runs), the dialog stayed on the page,
    // most likely a close begun mid-animation that never unmounted; if it stays again, its state is said.
    await eventually(async () =>
      expect(
        await modal.evaluate(
          (element) => element.contains(document.activeElement) && element.getAnimations().every((animation) => animation.playState === 'finished'),
        ),
      ).toBe(true),
    );
    await page.keyboard.press('Escape');
    await eventually(async () => {
      const left = await modal.evaluateAll((elements) =>
        elements.map((element) => ({
          state: element.getAttribute('data-state'),
          animations: element.getAnimations().map((a) => `${(a as CSSAnimation).animationName} ${a.playState}`),
        })),
      );
      expect(left).toEqual([]);
    });
  });

  it("says why a link's row pairs are withheld (the grant a record was read under ended) instead of an empty table", async () => {
    const withheld = 'The access grant on "population.csv" has ended: the links made under it are no longer shown.';
    jobs = [job('job-link-4', 'LINK', { content: { ...job('x', 'LINK').content, matches: [], total_matches: 0, withheld } })];
    const page = await open('/jobs');
    await jobCard(page, 'job-link-4')
      .getByRole('button', { name: /^Result/ })
      .click();
    const modal = page.getByTestId('link-result');
    await modal.getByTestId('links-withheld').getByText(withheld).waitFor();
    expect(await modal.getByRole('table', { name: 'Linked rows' }).count()).toBe(0);
    expect(await modal.getByTestId('no-links').count()).toBe(0);
    expect(await modal.getByRole('button', { name: 'Merge', exact: true }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'jobs-link-result-withheld');
  });

  it('deletes a job ("Job deleted.") and says when a delete failed ("Job delete failed.")', async () => {
    jobs = [job('job-a', 'MERGE'), job('job-b', 'LINK')];
    const page = await open('/jobs');
    deleteFails = true;
    await jobCard(page, 'job-b').getByRole('button', { name: 'Delete job job-b' }).click();
    await page.getByText('Job delete failed.').waitFor();
    expect(await jobCard(page, 'job-b').count()).toBe(1);
    deleteFails = false;
    await jobCard(page, 'job-a').getByRole('button', { name: 'Delete job job-a' }).press('Enter');
    await page.getByText('Job deleted.').waitFor();
    await eventually(async () => expect(await jobCard(page, 'job-a').count()).toBe(0));
    expect(await jobCard(page, 'job-b').count()).toBe(1);
  });

  it('shows running jobs in the work area as a mosaic of progress bars, polled every 3 s while one runs', async () => {
    const running = job('job-merge-9', 'MERGE', { is_active: true, status: 'active', progress: { current: 1, total: 2 }, completed: null });
    jobs = [running];
    const page = await open('/records');
    const mosaic = page.getByTestId('running-jobs');
    await mosaic.getByRole('progressbar').waitFor();
    expect(await mosaic.getByText('50%').count()).toBe(1);
    expect(await mosaic.textContent()).toContain('gdp.csv · population.csv');
    await saveScreenshot(page, 'jobs-work-area-mosaic');
    running.progress = { current: 2, total: 2 };
    Object.assign(running, { is_active: false, status: 'complete' });
    await page.clock.fastForward(3_500);
    await eventually(async () => expect(await mosaic.count()).toBe(0));
    const settled = calls.filter((c) => c.path === '/api/tasks/jobs-list/' && (c.body as { active_flag?: boolean }).active_flag).length;
    await page.clock.fastForward(30_000);
    expect(calls.filter((c) => c.path === '/api/tasks/jobs-list/' && (c.body as { active_flag?: boolean }).active_flag).length).toBe(settled);
    for (const gap of await pollGaps(page)) expect(gap).toBeGreaterThanOrEqual(3_000);
  });

  const gdp = { id: 'rec-gdp', name: 'gdp.csv', enc_headers: ['Country Code'] };
  const population = { id: 'rec-pop', name: 'population.csv', enc_headers: ['Country Code'] };

  it('asks anonymous visitors to log in to scan for merges or link records', async () => {
    const page = await open('/records', { anonymous: true, workArea: [gdp, population] });
    const area = page.getByTestId('work-area');
    await area.getByRole('listitem').nth(1).waitFor();
    await area.getByRole('button', { name: 'Scan to Merge' }).click();
    await page.getByText('Please login to scan for merges.').waitFor();
    await area.getByRole('button', { name: 'Link Datasets' }).click();
    await page.getByText('Please login to link records.').waitFor();
    expect(calls.filter((c) => c.path.startsWith('/api/relations/')).length).toBe(0);
  });

  it('links exactly two records that both have hashed columns', async () => {
    let page = await open('/records', { workArea: [gdp, { ...population, enc_headers: [] }] });
    let area = page.getByTestId('work-area');
    await area.getByRole('listitem').nth(1).waitFor();
    expect(await area.getByRole('button', { name: 'Link Datasets' }).isDisabled()).toBe(true);
    await tabs.context!.close();
    page = await open('/records', { workArea: [gdp, population, { id: 'rec-3', name: 'third.csv', enc_headers: ['id'] }] });
    area = page.getByTestId('work-area');
    await area.getByRole('listitem').nth(2).waitFor();
    expect(await area.getByRole('button', { name: 'Link Datasets' }).isDisabled()).toBe(true);
    await area.getByRole('button', { name: 'Remove third.csv from the work area' }).click();
    await area.getByRole('button', { name: 'Link Datasets' }).click();
    await page.getByText('New link job was successfully initiated.').waitFor();
    expect(calls.find((c) => c.path === '/api/relations/link-records/')?.body).toEqual({ record_left: 'rec-gdp', record_right: 'rec-pop' });
  });

  it('merges the chosen field pairs horizontally or vertically from the Merge Scan Results', async () => {
    jobs = [];
    const page = await open('/records', { workArea: [gdp, population] });
    await page.getByTestId('work-area').getByRole('button', { name: 'Scan to Merge' }).click();
    const results = page.getByTestId('merge-scan-results');
    await results.waitFor();
    const horizontal = results.getByRole('button', { name: 'Merge Horizontal' });
    expect(await horizontal.isDisabled()).toBe(true);
    expect(await results.textContent()).toContain('0.91');
    await results.getByRole('checkbox', { name: 'Choose Country Code and Country Code' }).check();
    await results.getByRole('checkbox', { name: 'Choose Year and Year' }).check();
    await horizontal.click();
    // What the merge will make comes first; Start merge starts it.
    const preview = page.getByTestId('merge-preview');
    await preview.getByText('Rows: about 10,121 (estimated)').waitFor();
    await preview.getByRole('button', { name: 'Start merge' }).click();
    await page.getByText('New merge job was successfully initiated.').waitFor();
    const sent = calls.find((c) => c.path === '/api/relations/merge-features/')?.body as {
      merge_type: string;
      merge_relations: Array<{ header_left: string }>;
    };
    expect(sent.merge_type).toBe('horizontal');
    expect(sent.merge_relations.map((m) => m.header_left)).toEqual(['Country Code', 'Year']);
    await results.getByRole('button', { name: 'Merge Vertical' }).click();
    await preview.getByText('Rows: 31,174').waitFor();
    await preview.getByRole('button', { name: 'Start merge' }).click();
    await page.getByText('Some data cannot be merged. Please try tabular data like CSVs, XLS, Data Tables instead.').waitFor();
    await saveScreenshot(page, 'jobs-merge-scan-actions');
  });
});
