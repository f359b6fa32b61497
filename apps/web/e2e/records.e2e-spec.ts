import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { maskCellValue } from '@dc/extraction';
import { describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { linkIn, newestMail, signUpAndActivate, startRealProduct, type RealProduct } from './real-product';

/** The nearest shared/datasets above this file (beside the repository, or above a worktree). */
function findDatasets(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  return path.resolve(__dirname, '../../../../shared/datasets');
}
const datasets = findDatasets();

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
const SEMICOLON_CSV = 'csv/bank-marketing.csv';

const UPGRADE_TEXT = 'Upgrade your plan to choose who sees your records and to assign access policies.';
const UPLOAD_TIMED_OUT = 'The upload did not finish within 3 minutes and was stopped. Check the Workspace before you try again, with fewer or smaller files.';

interface ApiRecord {
  id: string;
  access: string;
  visibility: string;
  download_url: string | null;
  FILES: Array<{ META: { SHEETS?: Array<{ NAME: string; HEADERS: string[] }>; ERRORS: string[] } | null }>;
}

/**
 * The record screens against the real product in embedded mode: index each kind of file through
 * Add data → Index Files (with the CSV preview and the upload's progress), see its details once
 * extraction is done, edit records, share one with a chosen organisation and user, see what a BASIC
 * sub-account and a Data Admin are offered, see a bad file's errors, and delete records.
 */
describeInfra('records screens end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(300_000);
  let product: RealProduct;
  let base: string;
  let browser: Browser;
  let page: Page;
  let scratch: string;
  /** Record id per file kind. */
  const ids: Record<string, string> = {};
  let adaToken = '';

  const user = { username: 'ada', email: 'ada@example.org', password: 'analytical engine 1843' };
  /** Another organisation's member, to share a record with. */
  const bob = { username: 'bob', email: 'bob@example.org', password: 'difference engine 1822' };
  /** Sub-accounts of ada's organisation: a BASIC Data Viewer and a STANDARD Data Admin. */
  const clerk = { username: 'clerk', email: 'clerk@example.org', password: 'ledger and quill 1850' };
  const curator = { username: 'curator', email: 'curator@example.org', password: 'cabinet of curiosities' };

  beforeAll(async () => {
    product = await startRealProduct('records-flow');
    base = product.base;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    scratch = mkdtempSync(path.join(tmpdir(), 'dc-records-e2e-'));
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const field = (label: string, on: Page = page) => on.getByLabel(new RegExp(`^${label}\\*?$`));
  const button = (name: string, on: Page = page) => on.getByRole('button', { name, exact: true });
  const hashOf = (on: Page = page) => new URL(on.url()).hash;
  const token = () => page.evaluate(() => localStorage.getItem('dc.token') ?? sessionStorage.getItem('dc.token'));

  async function api(method: string, url: string, auth: string | null, body?: unknown) {
    return fetch(`${base}${url}`, {
      method,
      headers: { ...(auth ? { Authorization: `JWT ${auth}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  }
  const apiGet = (url: string, auth: string | null) => api('GET', url, auth);
  const recordOf = async (id: string) => (await (await apiGet(`/api/records/${id}/`, adaToken)).json()) as ApiRecord;

  /** The file's lines without blank ones, and the cells of a line (quotes around cells removed). */
  const linesOf = (relative: string) =>
    readFileSync(path.join(datasets, relative), 'utf8')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '');
  const cellsOf = (line: string, delimiter: string) => line.split(delimiter).map((cell) => cell.replace(/^"|"$/g, ''));

  /** Chooses files on the Index Files tab (from the datasets or anywhere). */
  async function chooseFiles(files: string[]) {
    await page.goto(`${base}/#/indexdata`);
    await page.getByRole('tab', { name: 'Index Files' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(files.map((file) => (path.isAbsolute(file) ? file : path.join(datasets, file))));
  }

  /** Clicks Index and answers the created records' ids in order. */
  async function submitIndex(count: number): Promise<string[]> {
    await button('Index').click();
    const links = page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(count), 120_000);
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => href.replace(/^#\/records\//, ''));
  }

  async function indexFiles(files: string[]): Promise<string[]> {
    await chooseFiles(files);
    expect(await page.getByTestId('csv-preview').count()).toBe(0);
    return submitIndex(files.length);
  }

  /** Opens a record's details and waits until the Working tab has gone. */
  async function openDetails(id: string, on: Page = page) {
    await on.goto(`${base}/#/records/${id}`);
    await on.getByRole('tab', { name: 'Groups' }).waitFor();
    // The page polls every 3 s while extraction runs.
    await on.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 120_000 });
    expect(await on.getByRole('tab', { name: 'Working' }).count()).toBe(0);
  }

  /** The JWT of a user, from the token endpoint. */
  async function tokenOf(who: { username: string; password: string }): Promise<string> {
    const login = await api('POST', '/api-token-auth/', null, { username: who.username, password: who.password });
    expect(login.status).toBe(200);
    return ((await login.json()) as { token: string }).token;
  }

  /**
   * A page of its own, signed in as `who` from the start (the token stored as "Remember me" would);
   * the login screen itself is covered by the first test.
   */
  async function signedInContext(who: { username: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), await tokenOf(who));
    return { context, page: await context.newPage() };
  }

  async function deleteThroughDetails(id: string) {
    await page.goto(`${base}/#/records/${id}`);
    await page.getByRole('tab', { name: 'Groups' }).waitFor();
    await button('Delete').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this record?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => expect(hashOf()).toBe('#/records'));
    expect((await apiGet(`/api/records/${id}/`, adaToken)).status).toBe(404);
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
    // The login's redirects have settled once the Workspace shows.
    await page.getByRole('heading', { name: 'Workspace' }).waitFor();
    adaToken = (await token()) ?? '';
    expect(adaToken).not.toBe('');
  });

  it('previews one CSV with its own header row and the comma delimiter, shows the upload in progress, then its headers and row count', async () => {
    const lines = linesOf(FILES.csv);
    const headers = cellsOf(lines[0], ',');
    await chooseFiles([FILES.csv]);
    const preview = page.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await page.getByTestId('csv-preview-delimiter').textContent()).toBe('comma');
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(headers);
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ','));
    // 7 lines: the header and 6 rows.
    expect(await preview.locator('tbody tr').count()).toBe(6);
    await saveScreenshot(page, 'records-index-preview-comma');
    await expectAccessible(page, 'records-index-preview-comma');

    // The upload is held at the network until its loading state has been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${base}/api/records/`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await button('Index').click();
    await page.getByTestId('upload-progress').waitFor();
    await page.getByRole('button', { name: 'Uploading…' }).waitFor();
    expect(await page.getByRole('button', { name: 'Uploading…' }).isDisabled()).toBe(true);
    expect(await page.locator('input[type="file"]').isDisabled()).toBe(true);
    await saveScreenshot(page, 'records-index-uploading');
    await expectAccessible(page, 'records-index-uploading');
    release();
    const links = page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(1), 120_000);
    await page.unroute(`${base}/api/records/`);
    expect(await page.getByTestId('upload-progress').count()).toBe(0);
    ids.csv = ((await links.first().getAttribute('href')) ?? '').replace(/^#\/records\//, '');
    await saveScreenshot(page, 'records-indexed-csv');
    await expectAccessible(page, 'records-indexed-csv');

    await openDetails(ids.csv);
    expect(await page.getByTestId('header-name').allTextContents()).toEqual(headers);
    expect(await page.getByTestId('file-total-rows').textContent()).toBe(String(lines.length - 1));
    expect(await page.getByTestId('record-owner').textContent()).toBe(user.username);
    expect(await page.getByTestId('record-size').textContent()).toMatch(/^\d+(\.\d+)? (Bytes|KB)$/);
    expect(await page.getByTestId('record-created').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await saveScreenshot(page, 'records-details-csv');
    await expectAccessible(page, 'records-details-csv');

    await page.getByRole('tab', { name: 'Statistics' }).click();
    await eventually(async () => expect(await page.getByTestId('stats-card').count()).toBe(headers.length));
    expect(await page.getByRole('img', { name: 'Statistics of Mean' }).count()).toBe(1);
    await saveScreenshot(page, 'records-details-csv-statistics');
    await expectAccessible(page, 'records-details-csv-statistics');
    await page.getByRole('tab', { name: 'Formatted Values' }).click();
    const formatted = page.getByRole('table', { name: 'Formatted values' });
    await formatted.waitFor();
    expect(await formatted.locator('tbody tr').count()).toBe(5);
    // Indexed with the default extract option (metadata): values show as masks (docs/metadata-before-access.md).
    expect(await formatted.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ',').map(maskCellValue));
    expect(await page.getByTestId('masked-values-note').first().isVisible()).toBe(true);
    await expectAccessible(page, 'records-details-csv-formatted-values');
    await page.getByRole('tab', { name: 'Table Metadata' }).click();
    await page.getByTestId('table-section').getByText('comma', { exact: true }).waitFor();
    await expectAccessible(page, 'records-details-csv-table-metadata');
  });

  it('previews a semicolon CSV with its quoted header row and the semicolon delimiter, and indexes it', async () => {
    const lines = linesOf(SEMICOLON_CSV);
    await chooseFiles([SEMICOLON_CSV]);
    const preview = page.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await page.getByTestId('csv-preview-delimiter').textContent()).toBe('semicolon');
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(cellsOf(lines[0], ';'));
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ';'));
    await saveScreenshot(page, 'records-index-preview-semicolon');
    await expectAccessible(page, 'records-index-preview-semicolon');
    [ids.semicolon] = await submitIndex(1);
    await openDetails(ids.semicolon);
    expect(await page.getByTestId('header-name').allTextContents()).toEqual(cellsOf(lines[0], ';'));
  });

  it('indexes one file of every other kind and shows each one’s details, every sheet of a workbook in Table Metadata', async () => {
    const kinds = Object.keys(FILES).filter((kind) => kind !== 'csv') as (keyof typeof FILES)[];
    const created = await indexFiles(kinds.map((kind) => FILES[kind]));
    kinds.forEach((kind, i) => (ids[kind] = created[i]));
    for (const kind of kinds) {
      await openDetails(ids[kind]);
      expect(await page.getByTestId('file-file').textContent()).toBe(path.basename(FILES[kind]));
      if (kind === 'xls' || kind === 'xlsx' || kind === 'hl7') expect(await page.getByTestId('header-name').count()).toBeGreaterThan(0);
      if (kind === 'pdf' || kind === 'docx' || kind === 'txt') {
        // Documents have words but no table: the Word Set tab shows, Statistics has no numbers, no Table Metadata.
        await page.getByRole('tab', { name: 'Word Set' }).waitFor();
        expect(await page.getByRole('tab', { name: 'Table Metadata' }).count()).toBe(0);
        await page.getByRole('tab', { name: 'Statistics' }).click();
        await page.getByText('No numerical data could be extracted.').waitFor();
      }
      if (kind === 'xls' || kind === 'xlsx') {
        const sheets = (await recordOf(ids[kind])).FILES[0].META?.SHEETS ?? [];
        expect(sheets.length).toBeGreaterThan(1);
        await page.getByRole('tab', { name: 'Table Metadata' }).click();
        await eventually(async () =>
          expect(await page.getByTestId('table-section').getByRole('heading').allTextContents()).toEqual(sheets.map((s) => `Sheet "${s.NAME}"`)),
        );
        for (const sheet of sheets.filter((s) => s.HEADERS.length > 0)) {
          expect(
            await page
              .getByRole('table', { name: `Headers of Sheet "${sheet.NAME}"` })
              .getByTestId('header-name')
              .allTextContents(),
          ).toEqual(sheet.HEADERS);
        }
        await saveScreenshot(page, `records-details-${kind}-table-metadata`);
        await expectAccessible(page, `records-details-${kind}-table-metadata`);
      }
      if (kind === 'hl7' || kind === 'zip') {
        await page.getByRole('tab', { name: 'Table Metadata' }).click();
        await page.getByTestId('table-section').first().waitFor();
        const headings = await page.getByTestId('table-section').getByRole('heading').allTextContents();
        if (kind === 'hl7') expect(headings).toEqual(['HL7 v2 messages']);
        else expect(headings.filter((h) => h.startsWith('Archive member ')).length).toBeGreaterThan(10);
      }
      await saveScreenshot(page, `records-details-${kind}`);
      await expectAccessible(page, `records-details-${kind}`);
    }
  });

  it('a bad file shows its extraction errors, and its Working tab does not stay', async () => {
    const broken = path.join(scratch, 'broken.xlsx');
    const bytes = readFileSync(path.join(datasets, FILES.xlsx));
    writeFileSync(broken, bytes.subarray(0, Math.floor(bytes.length / 3)));
    const empty = path.join(scratch, 'empty.csv');
    writeFileSync(empty, '');
    [ids.broken, ids.empty] = await indexFiles([broken, empty]);
    for (const [id, message] of [
      [ids.broken, /Damaged|zip/i],
      [ids.empty, /The file is empty/],
    ] as const) {
      await openDetails(id);
      const errors = page.getByTestId('extraction-errors');
      await errors.waitFor();
      expect(await errors.textContent()).toMatch(/Metadata could not be extracted/);
      expect(await errors.textContent()).toMatch(message);
      expect((await recordOf(id)).FILES[0].META?.ERRORS[0]).toMatch(message);
    }
    await saveScreenshot(page, 'records-details-bad-file');
    await expectAccessible(page, 'records-details-bad-file');
  });

  it('stops an upload still running after 180 s and says so (the page’s clock is fast-forwarded)', async () => {
    const { context, page: slow } = await signedInContext(user);
    await slow.clock.install();
    // The server never answers this upload.
    await slow.route(`${base}/api/records/`, () => undefined);
    await slow.goto(`${base}/#/indexdata`);
    await slow.locator('input[type="file"]').setInputFiles(path.join(datasets, FILES.csv));
    await button('Index', slow).click();
    await slow.getByTestId('upload-progress').waitFor();
    // The page's clock also runs on in real time (seconds, on a busy machine) between these steps:
    // 170 s leaves room for that and is still well before the 180 s limit.
    await slow.clock.fastForward(170_000);
    expect(await slow.getByTestId('upload-progress').count()).toBe(1);
    await slow.clock.fastForward(12_000);
    await slow.getByRole('alert').getByText(UPLOAD_TIMED_OUT).waitFor();
    expect(await slow.getByTestId('upload-progress').count()).toBe(0);
    expect(await button('Index', slow).isEnabled()).toBe(true);
    await saveScreenshot(slow, 'records-upload-timed-out');
    await context.close();
  });

  it('edits the description and makes the record visible to everyone', async () => {
    const id = ids.csv;
    expect((await apiGet(`/api/records/${id}/`, null)).status).toBe(404);
    await page.goto(`${base}/#/records/${id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/edit/${id}`));
    await field('Description').waitFor();
    await field('Description').fill('Annual mean CO2 at Mauna Loa');
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
    await expectAccessible(page, 'records-after-edit');

    const anonymous = await apiGet(`/api/records/${id}/`, null);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({ description: 'Annual mean CO2 at Mauna Loa', visibility: 'EV', access: 'OP' });
  });

  it('edits a workbook record: name, custom field, access fee and currency', async () => {
    const id = ids.xlsx;
    await page.goto(`${base}/#/records/edit/${id}`);
    await field('Name').waitFor();
    await field('Name').fill('Auto MPG');
    await page.getByRole('button', { name: /add field/i }).click();
    await page.getByPlaceholder(/label/i).last().fill('Origin');
    await page.getByPlaceholder(/value/i).last().fill('StatLib');
    await field('Access fee').fill('12.50');
    await page.locator('select[name="currency"]').selectOption('EUR');
    await saveScreenshot(page, 'records-edit-xlsx');
    await expectAccessible(page, 'records-edit-xlsx');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    await page.getByRole('heading', { name: 'Auto MPG' }).waitFor();
    expect(await page.getByTestId('record-access-fee').textContent()).toBe('12.5 EUR');
    expect(await (await apiGet(`/api/records/${id}/`, adaToken)).json()).toMatchObject({
      name: 'Auto MPG',
      accessFee: 12.5,
      currency: 'EUR',
      RECORD: { Origin: 'StatLib' },
    });
  });

  it('shares a record with an organisation and a user chosen in the CU pickers (Add disabled until a valid choice)', async () => {
    await signUpAndActivate(product, bob);
    const bobToken = await tokenOf(bob);
    const id = ids.hl7;
    expect((await apiGet(`/api/records/${id}/`, bobToken)).status).toBe(404);

    await page.goto(`${base}/#/records/edit/${id}`);
    await page.locator('select[name="visibility"]').selectOption('CU');
    // The pickers' inputs, each tied to its datalist of names.
    const organisations = page.locator('input[list]').nth(0);
    const users = page.locator('input[list]').nth(1);
    const addOrganisation = page.getByRole('button', { name: 'Add organisations' });
    const addUser = page.getByRole('button', { name: 'Add users' });
    expect(await addOrganisation.isDisabled()).toBe(true);
    // A part of a name is not a choice; the whole name from the autofill list is.
    await organisations.fill('bob');
    await page.locator('datalist option[value="bob Tester"]').first().waitFor({ state: 'attached' });
    expect(await addOrganisation.isDisabled()).toBe(true);
    await organisations.fill('bob Tester');
    await eventually(async () => expect(await addOrganisation.isDisabled()).toBe(false));
    await addOrganisation.click();
    await page.getByLabel('Chosen organisations').getByText('bob Tester').waitFor();
    expect(await addOrganisation.isDisabled()).toBe(true);

    expect(await addUser.isDisabled()).toBe(true);
    await users.fill('nobody at all');
    expect(await addUser.isDisabled()).toBe(true);
    await users.fill('bob Tester (bob)');
    await eventually(async () => expect(await addUser.isDisabled()).toBe(false));
    await addUser.click();
    await page.getByLabel('Chosen users').getByText('bob Tester (bob)').waitFor();
    await saveScreenshot(page, 'records-edit-custom');
    await expectAccessible(page, 'records-edit-custom');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    expect(await page.getByTestId('record-visibility').textContent()).toBe('Custom');

    const visibility = (await (await apiGet(`/api/visibilities/?associated_record=${id}`, adaToken)).json()) as { results: Array<Record<string, unknown>> };
    expect(visibility.results[0]).toMatchObject({
      visibility_selection: 'CU',
      organisations_with_visibility: [{ id: expect.any(String), name: 'bob Tester' }],
      // The catalogue names users by their username.
      users_with_visibility: [{ id: expect.any(String), name: bob.username }],
    });
    expect((await apiGet(`/api/records/${id}/`, bobToken)).status).toBe(200);
  });

  it('a Data Admin of the organisation may download a Request-access record; a Data Viewer gets Request', async () => {
    for (const [who, groups, clientType] of [
      [curator, [2], 'STANDARD'],
      [clerk, [3], undefined],
    ] as const) {
      const created = await api('POST', '/api/account/', adaToken, {
        username: who.username,
        email: who.email,
        first_name: who.username,
        last_name: 'Staff',
        password: who.password,
        groups,
        ...(clientType ? { client_type: clientType } : {}),
      });
      expect(created.status).toBe(201);
    }
    const id = ids.xls;
    expect((await recordOf(id)).access).toBe('RE');

    const admin = await signedInContext(curator);
    await openDetails(id, admin.page);
    await button('Download', admin.page).waitFor();
    expect(await button('Request', admin.page).count()).toBe(0);
    await saveScreenshot(admin.page, 'records-details-data-admin');
    await expectAccessible(admin.page, 'records-details-data-admin');
    await admin.context.close();

    const viewer = await signedInContext(clerk);
    await openDetails(id, viewer.page);
    await button('Request', viewer.page).waitFor();
    expect(await button('Download', viewer.page).count()).toBe(0);
    await viewer.context.close();
  });

  it('a BASIC sub-account sees visibility and policy disabled with the upgrade tooltip linking to #/indexdata, and visibility EV', async () => {
    const { context, page: basic } = await signedInContext(clerk);
    await basic.goto(`${base}/#/indexdata`);
    await field('Record name', basic).fill('Clerk notes');
    await button('Index', basic).click();
    const link = basic.getByTestId('created-records').getByRole('link');
    await link.waitFor();
    const id = ((await link.getAttribute('href')) ?? '').replace(/^#\/records\//, '');
    await basic.goto(`${base}/#/records/edit/${id}`);
    const visibility = basic.locator('select[name="visibility"]');
    await visibility.waitFor();
    expect(await visibility.isDisabled()).toBe(true);
    expect(await visibility.inputValue()).toBe('EV');
    expect(await basic.locator('select[name="policy"]').isDisabled()).toBe(true);
    // The tooltip opens 200 ms after the pointer enters; a re-render meanwhile (the page's queries
    // settling, late on a busy machine) can cancel that, so the pointer leaves and hovers again, as a
    // user would, until it shows.
    const tooltip = basic.getByText(UPGRADE_TEXT);
    for (let attempt = 0; attempt < 5 && !(await tooltip.isVisible()); attempt++) {
      await basic.mouse.move(0, 0);
      await visibility.hover({ force: true });
      await tooltip.waitFor({ timeout: 5000 }).catch(() => undefined);
    }
    await tooltip.waitFor();
    await saveScreenshot(basic, 'records-edit-basic');
    await expectAccessible(basic, 'records-edit-basic');
    const upgrade = basic.getByRole('link', { name: 'Upgrade' });
    expect(await upgrade.count()).toBe(2);
    expect(await upgrade.first().getAttribute('href')).toBe('#/indexdata');
    await upgrade.first().click();
    await eventually(async () => expect(hashOf(basic)).toBe('#/indexdata'));
    await context.close();
  });

  it('deletes records of several kinds after the confirmation', async () => {
    for (const kind of ['txt', 'zip', 'pdf', 'semicolon', 'broken']) await deleteThroughDetails(ids[kind]);
    await saveScreenshot(page, 'records-after-delete');
    await expectAccessible(page, 'records-after-delete');
  });
});
