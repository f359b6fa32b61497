import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type RealProduct, type SignedIn, startRealProduct } from './real-product';

const SOURCE = 'Global CO2 means';
const grantEnded = `This record was made from "${SOURCE}", whose access grant has ended; its data can no longer be downloaded.`;
const revokedUse = `This record was made from "${SOURCE}", whose owner revoked its use in this record; its data can no longer be downloaded.`;

/**
 * Lineage in a real browser against the product in embedded mode (issue 21, finding 2): A approves
 * B's request, B merges A's record with one of B's own through the work area and a job, A revokes
 * the approval, B's merged record says why it can no longer be downloaded, A finds the derivative
 * on the Access tab of A's record and revokes it (a confirm dialog, by keyboard), and B's record
 * says so. Screenshots go to test-artifacts/screenshots/lineage-*.png.
 */
describeInfra(
  'lineage end to end in embedded mode (two organisations, a browser)',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(420_000);
    let product: RealProduct;
    let browser: Browser;
    let alice: SignedIn;
    let bruno: SignedIn;
    let a: Page;
    let b: Page;
    let sourceId: string;
    let maunaId: string;
    let requestId: string;
    let derivedId: string;
    const shot = (page: Page, name: string) => saveScreenshot(page, `lineage-${name}`);
    const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
    const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
    const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

    async function pageOf(who: SignedIn, contexts: BrowserContext[]): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1400, height: 950 } });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), who.token);
      contexts.push(context);
      return context.newPage();
    }

    async function upload(who: SignedIn, file: string, name: string): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(`${DATASETS}/${file}`)], { type: 'text/csv' }), file.split('/').pop()!);
      form.append('name', name);
      const created = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${who.token}` }, body: form });
      if (created.status !== 201) throw new Error(`upload ${file}: ${created.status} ${await created.text()}`);
      return ((await created.json()) as { id: string }).id;
    }

    beforeAll(async () => {
      product = await startRealProduct('lineage');
      alice = await founder(product, 'alice', 'lineage owner 2024', { first_name: 'Alice', last_name: 'Owner' });
      bruno = await founder(product, 'bruno', 'lineage maker 2024', { first_name: 'Bruno', last_name: 'Maker' });
      sourceId = await upload(alice, 'csv/co2-annmean-gl.csv', SOURCE);
      expect((await apiCall(product, alice.token, 'PUT', `/api/records/${sourceId}/`, { visibility: 'EV', access: 'RE' })).status).toBe(200);
      maunaId = await upload(bruno, 'csv/co2-annmean-mlo.csv', 'Mauna Loa CO2');
      // B asks for A's record (the sharing story shows that part in the browser).
      requestId = await eventually(async () => {
        const opened = await apiCall(product, bruno.token, 'POST', '/api/requests/', { record: sourceId, status: 'new' });
        expect(opened.status).toBe(201);
        return ((await opened.json()) as { id: string }).id;
      });
      expect((await apiCall(product, bruno.token, 'PUT', `/api/requests/${requestId}/`, { status: 'sent', purpose: 'Compare CO2 series' })).status).toBe(200);
      browser = await launchChromium();
      const contexts: BrowserContext[] = [];
      a = await pageOf(alice, contexts);
      b = await pageOf(bruno, contexts);
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    it('A approves the request', async () => {
      await a.goto(`${product.base}/#/request`);
      const item = a.getByTestId('request-item').filter({ hasText: SOURCE });
      await item.waitFor();
      await item.click();
      const panel = a.getByTestId('request-panel');
      await panel.getByTestId('request-status').filter({ hasText: 'review' }).waitFor();
      await button(panel, 'Approve').click();
      const confirm = a.getByRole('alertdialog');
      await button(confirm, 'Approve').click();
      await toast(a, 'You have approved the request!');
    });

    it("B merges A's record with one of B's own: the result is B's alone, and downloads while the approval lasts", async () => {
      // The scan proposes pairs once both records are extracted and relations holds the approval.
      await eventually(async () => {
        const scan = await apiCall(product, bruno.token, 'POST', '/api/relations/get-merge-relations/', { records: [sourceId, maunaId] });
        const { merge_relations } = (await scan.json()) as { merge_relations?: Array<{ header_left: string }> };
        expect(merge_relations?.map((m) => m.header_left)).toContain('Year');
      }, 180_000);
      await b.goto(`${product.base}/#/records`);
      for (const id of [sourceId, maunaId]) {
        const card = b.getByTestId(`record-card-${id}`);
        await card.waitFor();
        await card.getByRole('button', { name: /^Process / }).click();
      }
      const area = b.getByTestId('work-area');
      await eventually(async () => expect(await area.getByRole('listitem').count()).toBe(2));
      await button(area, 'Scan to Merge').click();
      const results = b.getByTestId('merge-scan-results');
      await results.waitFor({ timeout: 60_000 });
      await results.getByRole('table', { name: 'Merge candidates' }).getByRole('checkbox', { name: 'Choose Year and Year' }).first().check();
      await button(results, 'Merge Horizontal').click();
      await button(b.getByTestId('merge-preview'), 'Start merge').click();
      await b.getByText('New merge job was successfully initiated.').waitFor();

      await b.goto(`${product.base}/#/jobs`);
      const job = b.getByRole('listitem', { name: /^MERGE job / });
      await job.getByText('Status: Complete').waitFor({ timeout: 180_000 });
      await job.getByRole('link', { name: 'Merged record' }).click();
      await b.waitForURL(/#\/records\/[0-9a-f-]{36}$/);
      derivedId = b.url().split('/').pop()!;
      // The catalogue makes the record from the job's event: once it answers, the page shows it.
      await eventually(async () => expect((await apiCall(product, bruno.token, 'GET', `/api/records/${derivedId}/`)).status).toBe(200));
      await b.reload();
      await button(b, 'Download').waitFor();
      expect(await b.getByTestId('record-visibility').textContent()).toBe('Only me');
      await b.getByRole('tab', { name: 'Access' }).click();
      const sources = b.getByRole('table', { name: 'Sources of this record' });
      await sources
        .getByRole('row', { name: new RegExp(SOURCE) })
        .getByText('Approved request')
        .waitFor();
      await b.getByTestId('owner-only-note').waitFor();
      await shot(b, 'derivative-made');
      await expectAccessible(b, 'lineage-derivative-made');
    });

    it("A revokes the approval; B's derivative says why it can no longer be downloaded", async () => {
      const panel = a.getByTestId('request-panel');
      await button(panel, 'Revoke access').click();
      const confirm = a.getByRole('alertdialog');
      await confirm.getByLabel('Reason').fill('The licence with our data provider ended.');
      await button(confirm, 'Revoke access').click();
      await toast(a, 'Access to the data was revoked.');
      await panel.getByTestId('request-status').filter({ hasText: 'revoked' }).waitFor();

      // The catalogue hears of the revocation through an event: B's page shows it once it has.
      const notice = b.getByTestId('download-blocked');
      await eventually(async () => {
        await b.reload();
        await notice.getByText(grantEnded).waitFor({ timeout: 2_000 });
      });
      expect(await button(b, 'Download').count()).toBe(0);
      expect((await apiCall(product, bruno.token, 'GET', `/api/records/${derivedId}/download/`)).status).toBe(403);
      await shot(b, 'derivative-grant-ended');
      await expectAccessible(b, 'lineage-derivative-grant-ended');
    });

    it("A sees the derivative on the Access tab of A's record and revokes it, by keyboard, after confirming", async () => {
      await a.goto(`${product.base}/#/records/${sourceId}`);
      await a.getByRole('tab', { name: 'Access' }).click();
      const row = a.getByRole('table', { name: 'Derivatives of this record' }).getByTestId('derivative');
      await row.getByText('bruno', { exact: true }).waitFor();
      await row.getByText('Approved request').waitFor();
      await shot(a, 'derivatives');
      await expectAccessible(a, 'lineage-derivatives');

      await row.getByRole('button', { name: /^Revoke / }).focus();
      await a.keyboard.press('Enter');
      const confirm = a.getByRole('alertdialog');
      await confirm.getByText(/Its maker will no longer be able to download it/).waitFor();
      // The dialog asks first with Cancel focused; Tab reaches Revoke.
      await eventually(async () => expect(await focusedText(a)).toBe('Cancel'));
      await shot(a, 'derivative-revoke-confirm');
      await expectAccessible(a, 'lineage-derivative-revoke-confirm');
      await a.keyboard.press('Tab');
      await eventually(async () => expect(await focusedText(a)).toBe('Revoke'));
      await a.keyboard.press('Enter');
      await a.getByTestId('derivative-revoked').filter({ hasText: 'bruno can no longer download it.' }).waitFor();
      await row
        .getByTestId('derivative-status')
        .filter({ hasText: /^Revoked \d{4}-\d{2}-\d{2}$/ })
        .waitFor();
      // The dialog closes (after its closing animation).
      await confirm.waitFor({ state: 'hidden' });
      await shot(a, 'derivatives-revoked');

      // B's page now says the owner revoked it.
      await b.reload();
      await b.getByTestId('download-blocked').getByText(revokedUse).waitFor();
      await b.getByRole('tab', { name: 'Access' }).click();
      await b.getByRole('table', { name: 'Sources of this record' }).getByText('Revoked by its owner').waitFor();
      await shot(b, 'derivative-revoked');
      await expectAccessible(b, 'lineage-derivative-revoked');
    });
  },
);
