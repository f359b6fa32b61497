// Shared set-up and helpers of the record screens' browser suites (records-*.e2e-spec.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DATASETS, eventually, isChromiumInstalled, launchChromium } from '@dc/testing';
import { startRealProduct, type RealProduct } from './real-product';

/** describeInfra's condition for the browser suites. */
export const CHROMIUM = isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)';

/** One file of each kind the catalogue extracts. */
export const FILES = {
  csv: 'csv/co2-annmean-mlo.csv',
  xls: 'excel/wti-month.xls',
  xlsx: 'excel/Auto.xlsx',
  pdf: 'pdf/masculinity-survey.pdf',
  docx: 'docx/docx-tables.docx',
  hl7: 'hl7/001_ADT_A01.hl7',
  zip: 'zip/IndoorMovement.zip',
  txt: 'txt/Alaska_SOTS.txt',
} as const;
export const SEMICOLON_CSV = 'csv/bank-marketing.csv';

export const UPGRADE_TEXT = 'Upgrade your plan to choose who sees your records and to assign access policies.';
export const UPLOAD_TIMED_OUT =
  'The upload did not finish within 3 minutes and was stopped. Check the Workspace before you try again, with fewer or smaller files.';

export interface ApiRecord {
  id: string;
  access: string;
  visibility: string;
  download_url: string | null;
  FILES: Array<{ META: { SHEETS?: Array<{ NAME: string; HEADERS: string[] }>; ERRORS: string[] } | null }>;
}

/** The owner of the records. */
export const user = { username: 'ada', email: 'ada@example.org', password: 'analytical engine 1843' };
/** Another organisation's member, to share a record with. */
export const bob = { username: 'bob', email: 'bob@example.org', password: 'difference engine 1822' };
/** Sub-accounts of ada's organisation: a BASIC Data Viewer and a STANDARD Data Admin. */
export const clerk = { username: 'clerk', email: 'clerk@example.org', password: 'ledger and quill 1850' };
export const curator = { username: 'curator', email: 'curator@example.org', password: 'cabinet of curiosities' };

/** The file's lines without blank ones, and the cells of a line (quotes around cells removed). */
export const linesOf = (relative: string) =>
  readFileSync(path.join(DATASETS, relative), 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
export const cellsOf = (line: string, delimiter: string) => line.split(delimiter).map((cell) => cell.replace(/^"|"$/g, ''));

/** What the record suites share: the product, chromium's page, and helpers (arrow functions, so they can be destructured). */
export class RecordsScreens {
  product!: RealProduct;
  base = '';
  browser!: Browser;
  page!: Page;
  scratch = '';
  /** Record id per file kind. */
  readonly ids: Record<string, string> = {};
  adaToken = '';

  field = (label: string, on: Page = this.page): Locator => on.getByLabel(new RegExp(`^${label}\\*?$`));
  button = (name: string, on: Page = this.page): Locator => on.getByRole('button', { name, exact: true });
  hashOf = (on: Page = this.page): string => new URL(on.url()).hash;
  token = (): Promise<string | null> => this.page.evaluate(() => localStorage.getItem('dc.token') ?? sessionStorage.getItem('dc.token'));

  api = (method: string, url: string, auth: string | null, body?: unknown): Promise<Response> =>
    fetch(`${this.base}${url}`, {
      method,
      headers: { ...(auth ? { Authorization: `JWT ${auth}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  apiGet = (url: string, auth: string | null): Promise<Response> => this.api('GET', url, auth);
  recordOf = async (id: string): Promise<ApiRecord> => (await (await this.apiGet(`/api/records/${id}/`, this.adaToken)).json()) as ApiRecord;

  /** Chooses files on the Index Files tab (from the datasets or anywhere). */
  chooseFiles = async (files: string[]): Promise<void> => {
    await this.page.goto(`${this.base}/#/indexdata`);
    await this.page.getByRole('tab', { name: 'Index Files' }).waitFor();
    await this.page.locator('input[type="file"]').setInputFiles(files.map((file) => (path.isAbsolute(file) ? file : path.join(DATASETS, file))));
  };

  /** Clicks Index and answers the created records' ids in order. */
  submitIndex = async (count: number): Promise<string[]> => {
    await this.button('Index').click();
    const links = this.page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(count), 120_000);
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => href.replace(/^#\/records\//, ''));
  };

  indexFiles = async (files: string[]): Promise<string[]> => {
    await this.chooseFiles(files);
    expect(await this.page.getByTestId('csv-preview').count()).toBe(0);
    return this.submitIndex(files.length);
  };

  /** Opens a record's details and waits until the Working tab has gone. */
  openDetails = async (id: string, on: Page = this.page): Promise<void> => {
    await on.goto(`${this.base}/#/records/${id}`);
    await on.getByRole('tab', { name: 'Projects' }).waitFor();
    // The page polls every 3 s while extraction runs.
    await on.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 120_000 });
    expect(await on.getByRole('tab', { name: 'Working' }).count()).toBe(0);
  };

  /** The JWT of a user, from the token endpoint. */
  tokenOf = async (who: { username: string; password: string }): Promise<string> => {
    const login = await this.api('POST', '/api-token-auth/', null, { username: who.username, password: who.password });
    expect(login.status).toBe(200);
    return ((await login.json()) as { token: string }).token;
  };

  /**
   * A page of its own, signed in as `who` from the start (the token stored as "Remember me" would);
   * the login screen itself is covered by records-index's first test.
   */
  signedInContext = async (who: { username: string; password: string }): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), await this.tokenOf(who));
    return { context, page: await context.newPage() };
  };

  deleteThroughDetails = async (id: string): Promise<void> => {
    await this.page.goto(`${this.base}/#/records/${id}`);
    await this.page.getByRole('tab', { name: 'Projects' }).waitFor();
    await this.button('Delete').click();
    const dialog = this.page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this record?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => expect(this.hashOf()).toBe('#/records'));
    expect((await this.apiGet(`/api/records/${id}/`, this.adaToken)).status).toBe(404);
  };
}

/**
 * Starts the real product (embedded mode), chromium with one page, and a scratch directory for a
 * suite: call it in the suite's body. `ids` holds the record id per file kind, `adaToken` the
 * owner's token once a test or set-up has it.
 */
export function recordsScreens(productName: string): RecordsScreens {
  const screens = new RecordsScreens();

  beforeAll(async () => {
    screens.product = await startRealProduct(productName);
    screens.base = screens.product.base;
    screens.browser = await launchChromium();
    const context = await screens.browser.newContext({ viewport: { width: 1280, height: 900 } });
    screens.page = await context.newPage();
    screens.scratch = mkdtempSync(path.join(tmpdir(), `dc-${productName}-e2e-`));
  });

  afterAll(async () => {
    await screens.browser?.close();
    await screens.product?.stop();
    if (screens.scratch) rmSync(screens.scratch, { recursive: true, force: true });
  });

  return screens;
}
