import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Browser, Page } from 'playwright-core';
import { clkEncoder } from '@dc/extraction';
import {
  createTestMysqlDatabase,
  DATASETS,
  describeInfra,
  eventually,
  expectAccessible,
  isChromiumInstalled,
  launchChromium,
  saveScreenshot,
  startS3rver,
  TEST_MYSQL,
  type TestMysqlDatabase,
  type TestS3Server,
} from '@dc/testing';
import { founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

const csvOf = (relative: string) => Papa.parse<string[]>(readFileSync(path.join(DATASETS, relative), 'utf8'), { skipEmptyLines: 'greedy' }).data;

/** A linkage key the test knows, so it can compute the hashes the browser must send. */
const LINKAGE_KEY = Buffer.alloc(32, 21);
const LINKAGE_KEY_TEXT = LINKAGE_KEY.toString('base64url');
const hashOf = (value: string) => createHmac('sha256', LINKAGE_KEY).update(value.trim()).digest('hex').slice(0, 32);
/** The CLK (fuzzy hash) the browser must send: the server's encoder, checked against the browser's in private-indexing.spec.ts. */
const clkOf = clkEncoder(new Uint8Array(LINKAGE_KEY));
const keyId = createHash('sha256').update('data-catalogue linkage key id\n').update(LINKAGE_KEY).digest('hex').slice(0, 16);
const READER_PASSWORD = 'reader of the catalogue 9';

interface ApiMeta {
  FILE: { HEADERS: string[]; TOTAL_ROWS: number; STATS: Record<string, { FORMATTED_VALS: string[]; MIN: number | null }> };
  ENCRYPTED_COLS?: string[];
  SHARE_FORMATS?: Array<{ index: number; format: string; hash: boolean }>;
  LINKAGE_KEY_ID?: string;
  CLK_COLS?: string[];
}

/**
 * The three new Add data tabs against the real product in embedded mode, with a real MariaDB, s3rver
 * and real datasets: a database connection (test, connect, index a table with a hashed and a masked
 * column, open the record), an S3 account (save, buckets, objects, index two objects), and private
 * indexing of a real CSV while every request body the browser sends is inspected.
 */
describeInfra(
  'Add data: database, S3 and private indexing end to end in embedded mode',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(300_000);
    let product: RealProduct;
    let browser: Browser;
    let page: Page;
    let ada: SignedIn;
    let maria: TestMysqlDatabase;
    let s3: TestS3Server;
    const reader = `dc_e2e_${Date.now().toString(36)}`;

    const button = (name: string) => page.getByRole('button', { name, exact: true });
    /** Ticks a checkbox the way a keyboard user does (Chakra draws its box over the input). */
    async function tick(name: string) {
      const box = page.getByRole('checkbox', { name, exact: true });
      await box.focus();
      await box.press('Space');
      expect(await box.isChecked()).toBe(true);
    }
    const field = (label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));
    async function api<T>(url: string): Promise<T> {
      const response = await fetch(`${product.base}${url}`, { headers: { Authorization: `JWT ${ada.token}` } });
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    }
    const recordMeta = async (id: string) => (await api<{ FILES: Array<{ META: ApiMeta }> }>(`/api/records/${id}/`)).FILES[0].META;
    const createdIds = async () => {
      const links = page.getByTestId('created-records').getByRole('link');
      await links.first().waitFor({ timeout: 120_000 });
      return (await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))).map((href) => href.replace(/^#\/records\//, ''));
    };

    beforeAll(async () => {
      maria = await createTestMysqlDatabase('dc_e2e_sources');
      const sp500 = csvOf('csv/sp500-constituents.csv');
      await maria.connection.query('CREATE TABLE sp500 (`Symbol` TEXT, `Security` TEXT, `GICS Sector` TEXT, `CIK` BIGINT, `Founded` TEXT)');
      await maria.connection.query('INSERT INTO sp500 VALUES ?', [sp500.slice(1).map((r) => [r[0], r[1], r[2], Number(r[6]), r[7]])]);
      await maria.connection.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${READER_PASSWORD}'; GRANT SELECT ON \`${maria.name}\`.* TO '${reader}'@'%'`);

      s3 = await startS3rver();
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      for (const bucket of ['climate', 'speeches']) await client.send(new CreateBucketCommand({ Bucket: bucket }));
      await client.send(
        new PutObjectCommand({ Bucket: 'climate', Key: 'co2-annmean-gl.csv', Body: readFileSync(path.join(DATASETS, 'csv/co2-annmean-gl.csv')) }),
      );
      await client.send(
        new PutObjectCommand({ Bucket: 'climate', Key: 'co2-annmean-mlo.csv', Body: readFileSync(path.join(DATASETS, 'csv/co2-annmean-mlo.csv')) }),
      );
      await client.send(new PutObjectCommand({ Bucket: 'speeches', Key: 'Alaska_SOTS.txt', Body: readFileSync(path.join(DATASETS, 'txt/Alaska_SOTS.txt')) }));
      client.destroy();

      // MariaDB and s3rver listen on loopback: the operator allows it (README, ALLOWED_PRIVATE_ENDPOINTS).
      product = await startRealProduct('sources-flow', { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' });
      ada = await founder(product, 'ada', 'analytical engine 1843');
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), ada.token);
      page = await context.newPage();
    });

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
      await s3?.stop();
      await maria?.connection.query(`DROP USER IF EXISTS '${reader}'@'%'`).catch(() => undefined);
      await maria?.drop();
    });

    it('creates a MariaDB connection (Connect only after a passed Test), indexes a table with a hashed and a masked column, and opens the record', async () => {
      await page.goto(`${product.base}/#/indexdata?tab=database`);
      await page.getByText('No connections available, please create one.').waitFor();
      await saveScreenshot(page, 'sources-database-empty');
      await expectAccessible(page, 'sources-database-empty');
      // The alert hides after 3 s (spec section 9).
      await page.getByText('No connections available, please create one.').waitFor({ state: 'hidden', timeout: 6_000 });

      await page.getByLabel('Database type').selectOption('mysql');
      await field('Host').fill(TEST_MYSQL.host);
      await field('Port').fill(String(TEST_MYSQL.port));
      await field('Database name').fill(maria.name);
      await field('Username').fill(reader);
      await field('Password').fill('not the password');
      expect(await button('Connect').isDisabled()).toBe(true);
      await button('Test').click();
      await page.getByText('Testing connection failed...').waitFor();
      expect(await button('Connect').isDisabled()).toBe(true);
      await field('Password').fill(READER_PASSWORD);
      await button('Test').click();
      await page.getByText('The connection test passed.').waitFor();
      expect(await button('Connect').isDisabled()).toBe(false);
      await button('Connect').click();
      await page.getByText(`The connection to ${maria.name} was added.`).waitFor();
      await page.getByRole('button', { name: `Select ${maria.name}` }).click();
      const tables = page.getByTestId('connection-tables');
      await tables.getByText('Symbol (text), Security (text)', { exact: false }).waitFor();
      await saveScreenshot(page, 'sources-database-tables');
      await expectAccessible(page, 'sources-database-tables');

      await page.getByRole('button', { name: 'Index Table sp500' }).click();
      const modal = page.getByTestId('column-selection');
      await modal.getByTestId('total-rows').getByText('Total rows: 503').waitFor();
      expect(await modal.locator('tbody tr').count()).toBe(10);
      await tick('Hash Symbol');
      await modal.getByLabel('Share format of Security').selectOption('mask');
      await modal.getByLabel('Linkage key', { exact: true }).fill(LINKAGE_KEY_TEXT);
      await modal.getByTestId('linkage-key-id').getByText(keyId).waitFor();
      await saveScreenshot(page, 'sources-database-columns');
      await expectAccessible(page, 'sources-database-columns');
      await modal.getByRole('button', { name: 'Create Metadata Record' }).click();
      const [id] = await createdIds();

      await page.getByTestId('created-records').getByRole('link').first().click();
      await page.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 60_000 });
      await saveScreenshot(page, 'sources-database-record');
      await expectAccessible(page, 'sources-database-record');
      const meta = await recordMeta(id);
      const symbols = csvOf('csv/sp500-constituents.csv')
        .slice(1, 6)
        .map((r) => r[0]);
      expect(meta.FILE.HEADERS).toEqual(['Symbol', 'Security', 'GICS Sector', 'CIK', 'Founded']);
      expect(meta.FILE.TOTAL_ROWS).toBe(503);
      expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(symbols.map(hashOf));
      expect(meta.FILE.STATS['1'].FORMATTED_VALS.every((v) => /^[Xx9 &.,'-]*$/.test(v))).toBe(true);
      expect(meta).toMatchObject({ ENCRYPTED_COLS: ['Symbol'], LINKAGE_KEY_ID: keyId });
      expect(meta.SHARE_FORMATS!.slice(0, 2)).toEqual([
        { index: 0, format: 'plain', hash: true },
        { index: 1, format: 'mask', hash: false },
      ]);

      // Deleting asks first (spec section 5); the record stays.
      await page.goto(`${product.base}/#/indexdata?tab=database`);
      await page.getByRole('button', { name: `Delete connection ${maria.name}` }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Are you sure you want to delete this connection?').waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No connections available, please create one.').waitFor();
      expect((await api<{ count: number }>('/api/connections/list-connections/')).count).toBe(0);
      expect((await recordMeta(id)).FILE.TOTAL_ROWS).toBe(503);
    });

    it('saves an S3 account against s3rver, lists buckets and objects, and indexes two objects', async () => {
      await page.goto(`${product.base}/#/indexdata?tab=s3`);
      await page.getByText('No saved accounts.').waitFor();
      await field('Access key id').fill(s3.accessKeyId);
      await field('Secret access key').fill('wrong secret');
      await field('Endpoint').fill(s3.endpoint);
      await button('Load Buckets').click();
      await page.getByText('Loading buckets for this account failed. Please try again.').waitFor();
      await field('Secret access key').fill(s3.secretAccessKey);
      await button('Load Buckets').click();
      const buckets = page.getByTestId('buckets');
      await buckets.getByText('climate').waitFor();
      await page.getByRole('list', { name: 'Saved accounts' }).getByText(`${s3.accessKeyId} at ${s3.endpoint}`).waitFor();
      expect(await page.getByLabel('Sync').isDisabled()).toBe(true);
      expect(await button('List Objects').isDisabled()).toBe(true);
      expect(await button('Index Selected Buckets').isDisabled()).toBe(true);
      await buckets.getByText('climate').click();
      await buckets.getByText('speeches').click();
      // List Objects needs exactly one bucket.
      expect(await button('List Objects').isDisabled()).toBe(true);
      await buckets.getByText('speeches').click();
      await button('List Objects').click();
      const objects = page.getByTestId('bucket-objects');
      await objects.getByText('co2-annmean-gl.csv', { exact: false }).waitFor();
      await objects.getByText('co2-annmean-gl.csv', { exact: false }).click();
      await objects.getByText('co2-annmean-mlo.csv', { exact: false }).click();
      await saveScreenshot(page, 'sources-s3-objects');
      await expectAccessible(page, 'sources-s3-objects');
      await button('Index Selected Objects').click();
      const results = page.getByTestId('index-results');
      await results.getByRole('link', { name: 'co2-annmean-mlo.csv' }).waitFor({ timeout: 120_000 });
      const hrefs = await results.getByRole('link').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs).toHaveLength(2);
      await saveScreenshot(page, 'sources-s3-indexed');
      await expectAccessible(page, 'sources-s3-indexed');
      const meta = await recordMeta(hrefs[1].replace(/^#\/records\//, ''));
      expect(meta.FILE).toMatchObject({ HEADERS: ['Year', 'Mean', 'Uncertainty'], TOTAL_ROWS: 67 });
      await results.getByRole('link', { name: 'co2-annmean-gl.csv' }).click();
      await page.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 60_000 });

      await page.goto(`${product.base}/#/indexdata?tab=s3`);
      await page.getByRole('button', { name: `Delete account ${s3.accessKeyId}` }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Are you sure you want to delete this account?').waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No saved accounts.').waitFor();
      expect((await api<{ count: number }>('/api/connect-aws/get-accounts/')).count).toBe(0);
    });

    it('indexes a real CSV privately: hashed columns leave the browser only as keyed hashes or CLKs (fuzzy), which link with the server-side hashing', async () => {
      // Every body the page sends: as the network sees it (JSON calls), and as the page hands it to
      // XMLHttpRequest or fetch, multipart forms and their file parts included (the network layer does
      // not show a Blob's bytes).
      const bodies: string[] = [];
      page.on('request', (request) => {
        const body = request.postDataBuffer();
        if (body) bodies.push(body.toString('utf8'));
      });
      // Written as text: this file is compiled for Node, whose helpers the page does not have.
      await page.addInitScript(`(() => {
      const sent = [];
      let pending = Promise.resolve();
      const record = (body) => {
        pending = pending.then(async () => {
          if (body instanceof FormData) {
            const parts = [];
            body.forEach((value, name) => parts.push(typeof value === 'string' ? Promise.resolve(name + '=' + value) : value.text().then((text) => name + ':' + text)));
            sent.push(...(await Promise.all(parts)));
          } else if (body instanceof Blob) sent.push(await body.text());
          else if (typeof body === 'string') sent.push(body);
        });
      };
      const send = XMLHttpRequest.prototype.send;
      XMLHttpRequest.prototype.send = function (body) {
        record(body);
        return send.call(this, body);
      };
      const originalFetch = window.fetch;
      window.fetch = (input, init) => {
        record(init && init.body);
        return originalFetch(input, init);
      };
      window.sentBodies = async () => {
        await pending;
        return sent;
      };
    })()`);
      // A new document, so that the script above runs in it.
      await page.goto('about:blank');
      await page.goto(`${product.base}/#/indexdata?tab=private`);
      await page.getByTestId('linkage-key').getByLabel('Linkage key').fill(LINKAGE_KEY_TEXT);
      await page.getByTestId('linkage-key-id').getByText(keyId).waitFor();
      await page.getByLabel('CSV file').setInputFiles(path.join(DATASETS, 'csv/gdp.csv'));
      const modal = page.getByTestId('column-selection');
      await modal.getByTestId('total-rows').getByText('Total rows: 13,979').waitFor({ timeout: 60_000 });
      await tick('Hash Country Code');
      // Country Name is hashed fuzzy (a CLK): names with a typo still link, and none is readable.
      await tick('Hash Country Name');
      await tick('Fuzzy Country Name');
      await saveScreenshot(page, 'sources-private-columns');
      await expectAccessible(page, 'sources-private-columns');
      await modal.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('private-summary').getByText('Hashed: Country Name (fuzzy), Country Code.', { exact: false }).waitFor();
      await button('Index privately').click();
      const [id] = await createdIds();
      await saveScreenshot(page, 'sources-private-indexed');
      await expectAccessible(page, 'sources-private-indexed');

      const gdp = csvOf('csv/gdp.csv');
      const codes = [...new Set(gdp.slice(1).map((r) => r[1]))];
      const names = [...new Set(gdp.slice(1).map((r) => r[0]))].filter((n) => n.length >= 6);
      bodies.push(...((await page.evaluate('window.sentBodies()')) as string[]));
      expect(bodies).toContain(`linkageKeyId=${keyId}`);
      expect(bodies).toContain('hashedList=["Country Name","Country Code"]');
      expect(bodies).toContain('fuzzyList=["Country Name"]');
      const file = bodies.find((b) => b.startsWith('file:'));
      expect(file?.split('\n')[0]).toBe('file:Country Name,Country Code,Year,Value');
      expect(file).toContain(`\n${clkOf('Afghanistan')},${hashOf('AFG')},2000,3521418059.923445`);
      for (const text of bodies) {
        expect(codes.filter((code) => new RegExp(`\\b${code}\\b`).test(text))).toEqual([]);
        expect(names.filter((name) => text.includes(name))).toEqual([]);
        expect(text).not.toContain(LINKAGE_KEY_TEXT);
      }

      const meta = await eventually(async () => {
        const record = await api<{ extraction_status: string; FILES: Array<{ META: ApiMeta }> }>(`/api/records/${id}/`);
        expect(record.extraction_status).toBe('done');
        return record.FILES[0].META;
      }, 60_000);
      expect(meta.FILE.HEADERS).toEqual(['Country Name', 'Country Code', 'Year', 'Value']);
      expect(meta.FILE.TOTAL_ROWS).toBe(13_979);
      // The same hashes as the server makes from the same key: SQL, S3 and upload records link with this one.
      expect(meta.FILE.STATS['1'].FORMATTED_VALS).toEqual(gdp.slice(1, 6).map((r) => hashOf(r[1])));
      // CLKs are shown cut to the cell width, as any long value.
      expect(meta.FILE.STATS['0'].FORMATTED_VALS.map((v) => v.slice(0, 60))).toEqual(gdp.slice(1, 6).map((r) => clkOf(r[0]).slice(0, 60)));
      expect(meta.FILE.STATS['2'].MIN).toBe(Math.min(...gdp.slice(1).map((r) => Number(r[2]))));
      expect(meta).toMatchObject({ ENCRYPTED_COLS: ['Country Name', 'Country Code'], CLK_COLS: ['Country Name'], LINKAGE_KEY_ID: keyId });
      // What the server keeps is what it received: the stored file has hashes and CLKs only.
      const { url } = await api<{ url: string }>(`/api/records/${id}/download/`);
      const stored = await (await fetch(url.startsWith('http') ? url : `${product.base}${url}`)).text();
      expect(stored.split('\n')).toHaveLength(13_981);
      expect(codes.filter((code) => new RegExp(`\\b${code}\\b`).test(stored))).toEqual([]);
      await page.getByTestId('created-records').getByRole('link').first().click();
      await page.getByRole('tab', { name: 'File Metadata' }).waitFor({ timeout: 60_000 });
      await saveScreenshot(page, 'sources-private-record');
      await expectAccessible(page, 'sources-private-record');
    });
  },
);
