import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, type RealProduct, type SignedIn, startRealProduct } from './real-product';

const RECORD = 'Baltic sea levels';
const FILE = 'csv/co2-annmean-gl.csv';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** States that come from another service through an event (search, the side menu's counts) may take a while on a busy machine. */
const EVENT_WAIT_MS = 60_000;

/**
 * The requesting journey of a newcomer (issue 25, items 1, 2 and 10), two accounts in two
 * organisations on one embedded product: B fills the request dialog (what Send Request waits for,
 * no date before sending, Withdraw request apart from closing the dialog), A sees the count on the
 * side menu and the Received Requests tab, reads B's message (the count drops), approves with an
 * expiry typed as YYYY-MM-DD; B's Requests page opens on My Requests, where the approved request
 * offers Download (the bytes equal the upload). Screenshots: test-artifacts/screenshots/journey-requests-*.png.
 */
describeInfra(
  'the requesting journey: request dialog, Requests page and side menu count (two organisations, a browser)',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(300_000);
    let product: RealProduct;
    let browser: Browser;
    let alice: SignedIn;
    let bruno: SignedIn;
    let a: Page;
    let b: Page;
    let bContext: BrowserContext;
    let recordId: string;
    const upload = readFileSync(`${DATASETS}/${FILE}`);
    const shot = (page: Page, name: string) => saveScreenshot(page, `journey-requests-${name}`);
    /** A screenshot of an open confirmation: the page made as tall as its content, so the whole-page picture does not scroll under the modal. */
    async function modalShot(page: Page, name: string) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: 1366, height: Math.max(900, height) });
      await shot(page, name);
      await page.setViewportSize({ width: 1366, height: 900 });
    }
    const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
    const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
    /** The Requests entry of the side menu, whatever its count. */
    const requestsEntry = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Requests/ });
    /** The entry's accessible name, as a screen reader announces it. */
    const entryName = async (page: Page) => (await requestsEntry(page).ariaSnapshot()).replace(/^- link "(.*)":?[\s\S]*$/, '$1');
    /** Both viewports of the issue: a laptop and a phone. */
    async function accessibleAtBothSizes(page: Page, screen: string) {
      await expectAccessible(page, `journey-requests-${screen}-1366`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page, `journey-requests-${screen}-390`);
      await page.setViewportSize({ width: 1366, height: 900 });
    }

    async function pageOf(who: SignedIn, viewport = { width: 1366, height: 900 }): Promise<{ page: Page; context: BrowserContext }> {
      const context = await browser.newContext({ viewport });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), who.token);
      return { page: await context.newPage(), context };
    }

    beforeAll(async () => {
      product = await startRealProduct('journey-requests');
      alice = await founder(product, 'alice', 'journey owner 2024', { first_name: 'Alice', last_name: 'Owner' });
      bruno = await founder(product, 'bruno', 'journey requestor 2024', { first_name: 'Bruno', last_name: 'Asker' });
      const policy = await apiCall(product, alice.token, 'POST', '/api/policies/', {
        policyName: 'Research only',
        policyFields: [
          { topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' },
          { topic: 'Resale', requirement: 'You will sell the data', agree: 'no' },
        ],
      });
      expect(policy.status).toBe(201);
      const policyId = ((await policy.json()) as { id: string }).id;
      const form = new FormData();
      form.append('file', new Blob([upload], { type: 'text/csv' }), 'co2-annmean-gl.csv');
      form.append('name', RECORD);
      const created = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${alice.token}` }, body: form });
      expect(created.status).toBe(201);
      recordId = ((await created.json()) as { id: string }).id;
      expect((await apiCall(product, alice.token, 'PUT', `/api/records/${recordId}/`, { visibility: 'EV', access: 'RE', policy: policyId })).status).toBe(200);
      browser = await launchChromium();
      a = (await pageOf(alice)).page;
      ({ page: b, context: bContext } = await pageOf(bruno));
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
    });

    it('B: the dialog says what Send Request waits for, takes B to the first open question, dates nothing before sending, and keeps Withdraw request apart', async () => {
      await b.goto(`${product.base}/#/records?query=${encodeURIComponent(RECORD)}`);
      const card = b.getByTestId(`record-card-${recordId}`);
      // The record reaches B's search through an event: each try reloads and gives the page time to draw
      // (under load a reload alone can take seconds), and the whole wait is as long as the other stories'.
      await eventually(async () => {
        await b.reload();
        await button(card, 'Request').waitFor({ timeout: 10_000 });
      }, EVENT_WAIT_MS);
      await button(card, 'Request').click();
      const dialog = b.getByRole('dialog', { name: /^Request: / });
      const send = button(dialog, 'Send Request');
      await send.waitFor();
      // The record's policy reaches the requests service through an event: the dialog shows it once it has.
      await dialog.getByRole('row', { name: /Ethics/ }).waitFor();

      // Nothing was sent, so no date: the line says so.
      expect(await dialog.getByTestId('request-date').textContent()).toMatch(/^Not sent yet · data administrator alice$/);
      expect(await dialog.getByText(/Requested on/).count()).toBe(0);
      // What is missing is said next to the button, and is its description.
      const hint = dialog.getByTestId('send-hint');
      expect(await hint.textContent()).toBe('Answer the 2 policy questions to send.');
      expect(await send.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
      await dialog.getByLabel('Purpose').fill('Sea level study for the Baltic coast');

      // Trying anyway (a keyboard user reaches it: it is aria-disabled, not disabled) sends nothing and moves the focus to the first open question.
      await send.focus();
      await b.keyboard.press('Enter');
      const focused = () => b.evaluate(() => document.activeElement?.closest('tr')?.textContent ?? '');
      await eventually(async () => expect(await focused()).toContain('An approved ethics protocol'));
      expect(await dialog.getByText('Choose Yes or No.').count()).toBe(2);
      expect(await dialog.getByTestId('request-status').textContent()).toBe('new');
      await b.keyboard.press('Space');
      await eventually(async () => expect(await hint.textContent()).toBe('Answer the 1 remaining policy question to send.'));
      await shot(b, 'dialog-missing');
      await accessibleAtBothSizes(b, 'dialog-missing');
      await dialog
        .getByRole('row', { name: /Resale/ })
        .getByText('No', { exact: true })
        .click();
      await hint.waitFor({ state: 'detached' });

      // Withdrawing is named for what it does, in its own section below the form; the footer's Close only dismisses.
      const withdraw = dialog.getByRole('region', { name: 'Withdraw request' });
      await button(withdraw, 'Withdraw request').waitFor();
      expect(await button(dialog, 'Close request').count()).toBe(0);
      await shot(b, 'dialog');
      await accessibleAtBothSizes(b, 'dialog');

      await send.click();
      await toast(b, 'Your request was submitted. You will be notified once it has been approved by the data administator.');
      await dialog.getByTestId('request-status').filter({ hasText: 'sent' }).waitFor();
      const dated = (await dialog.getByTestId('request-date').textContent()) ?? '';
      expect(dated).toMatch(/^Sent on \d{4}-\d{2}-\d{2} · data administrator alice$/);
      await dialog.getByLabel('Message', { exact: true }).fill('Do you also have the monthly series?');
      await button(dialog, 'Send message').click();
      const message = dialog.getByTestId('message').filter({ hasText: 'Do you also have the monthly series?' });
      await message.waitFor();
      // Message times use the same day format, with the time.
      expect(await message.locator('p').first().textContent()).toMatch(/^bruno · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

      // The withdraw confirmation says it cannot be undone; cancelling keeps the request.
      await button(withdraw, 'Withdraw request').click();
      const confirm = b.getByRole('alertdialog', { name: 'Withdraw request' });
      await confirm.getByText('Are you sure you want to close this request? You cannot re-open a closed request.').waitFor();
      await modalShot(b, 'withdraw-confirm');
      await expectAccessible(b, 'journey-requests-withdraw-confirm');
      await button(confirm, 'Cancel').click();
      await confirm.waitFor({ state: 'detached' });
      await button(dialog, 'Close').click();
      await dialog.waitFor({ state: 'detached' });
      expect((await apiCall(product, bruno.token, 'GET', '/api/requests/sent_requests/').then((r) => r.json())).results[0].status).toBe('sent');
    });

    it('A: the side menu counts the request and the message; reading the message and deciding lower the count', async () => {
      await a.goto(`${product.base}/#/records`);
      await eventually(async () => expect(await entryName(a)).toBe('Requests, 2 need your attention'), EVENT_WAIT_MS);
      expect(await requestsEntry(a).getByTestId('requests-attention').textContent()).toBe('2');
      await shot(a, 'menu-count');
      // On a phone the side menu starts closed: the button that opens it carries the count, and describes it.
      const phone = await pageOf(alice, { width: 390, height: 844 });
      await phone.page.goto(`${product.base}/#/records`);
      const menu = button(phone.page, 'Toggle sidebar');
      const badge = phone.page.getByTestId('menu-attention');
      await badge.waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await badge.locator('[aria-hidden="true"]').textContent()).toBe('2');
      expect(await menu.getAttribute('aria-describedby')).toBe(await badge.getAttribute('id'));
      expect(await badge.textContent()).toContain('2 requests need your attention');
      await expectAccessible(phone.page, 'journey-requests-menu-count-390');
      await phone.context.close();
      await requestsEntry(a).click();
      await a.getByRole('tab', { name: 'Received Requests', selected: true }).waitFor();
      const item = a.getByTestId('request-item').filter({ hasText: RECORD });
      await item.getByTestId('request-waiting').filter({ hasText: '1 new message' }).waitFor();
      await item.click();
      const panel = a.getByTestId('request-panel');
      await panel.getByTestId('request-status').filter({ hasText: 'review' }).waitFor();
      await panel.getByText('Do you also have the monthly series?').waitFor();
      // Read: only the decision waits now, without reloading.
      await eventually(async () => expect(await entryName(a)).toBe('Requests, 1 needs your attention'), EVENT_WAIT_MS);
      expect(await panel.getByTestId('request-date').textContent()).toMatch(/^Sent on \d{4}-\d{2}-\d{2} · data administrator alice$/);
      await shot(a, 'received');
      await accessibleAtBothSizes(a, 'received');

      await panel.getByLabel('Message', { exact: true }).fill('Only the annual series; approving it.');
      await button(panel, 'Send message').click();
      await panel.getByTestId('message').filter({ hasText: 'Only the annual series' }).waitFor();

      // The expiry is typed as YYYY-MM-DD; another format is refused where it is typed.
      await button(panel, 'Approve').click();
      const confirm = a.getByRole('alertdialog');
      const expiry = confirm.getByLabel('Access expires on (optional)');
      expect(await expiry.getAttribute('type')).not.toBe('date');
      await expiry.fill('12/31/2027');
      await confirm.getByText('Enter the day as YYYY-MM-DD, e.g. 2027-01-31.').waitFor();
      await button(confirm, 'Approve').click();
      expect(await confirm.isVisible()).toBe(true);
      await expiry.fill(inDays(30));
      await confirm.getByText('Enter the day as YYYY-MM-DD, e.g. 2027-01-31.').waitFor({ state: 'detached' });
      await modalShot(a, 'approve-confirm');
      await expectAccessible(a, 'journey-requests-approve-confirm');
      await button(confirm, 'Approve').click();
      await toast(a, 'You have approved the request!');
      await panel
        .getByTestId('grant-term')
        .filter({ hasText: `Access until ${inDays(30)}.` })
        .waitFor();
      // Decided: nothing waits for A any more.
      await eventually(async () => expect(await entryName(a)).toBe('Requests'), EVENT_WAIT_MS);
      expect(await requestsEntry(a).getByTestId('requests-attention').count()).toBe(0);
    });

    it('B: the Requests page opens on My Requests, where the approved request offers Download (the bytes equal the upload)', async () => {
      // B comes back later (a fresh page load; an open page reads the count again every minute and on focus).
      await b.goto(`${product.base}/#/records`);
      await b.reload();
      await eventually(async () => expect(await entryName(b)).toBe('Requests, 1 needs your attention'), EVENT_WAIT_MS);
      await requestsEntry(b).click();
      // B received nothing: the page opens where B's request is.
      await b.getByRole('tab', { name: 'My Requests', selected: true }).waitFor();
      expect(await b.getByRole('tab', { name: 'Received Requests', selected: true }).count()).toBe(0);
      const item = b.getByTestId('request-item').filter({ hasText: RECORD });
      await item.getByTestId('request-waiting').filter({ hasText: '1 new message' }).waitFor();
      // Every date of the list is a day as YYYY-MM-DD.
      expect((await item.innerText()).split('·').pop()!.trim()).toMatch(DAY);
      await item.click();
      const panel = b.getByTestId('request-panel');
      await panel.getByTestId('request-status').filter({ hasText: 'approved' }).waitFor();
      expect(await panel.getByTestId('grant-term').textContent()).toBe(`Access until ${inDays(30)}.`);
      await panel.getByText('Only the annual series; approving it.').waitFor();
      await eventually(async () => expect(await entryName(b)).toBe('Requests'), EVENT_WAIT_MS);
      const download = button(panel, 'Download');
      await download.waitFor();
      await shot(b, 'mine-approved');
      await accessibleAtBothSizes(b, 'mine-approved');

      // The new window follows the signed link; the browser saves the file.
      const saved = new Promise<Download>((resolve) => bContext.once('page', (popup) => popup.once('download', resolve)));
      await download.click();
      const file = await (await saved).path();
      expect(readFileSync(file).equals(upload)).toBe(true);
      for (const other of bContext.pages()) if (other !== b) await other.close();
    });

    it('with a tab in the address, the page keeps it', async () => {
      await b.goto(`${product.base}/#/request?tab=received`);
      await b.getByRole('tab', { name: 'Received Requests', selected: true }).waitFor();
      await b.getByTestId('requests-empty-received').waitFor();
      await a.goto(`${product.base}/#/request?tab=sent`);
      await a.getByRole('tab', { name: 'My Requests', selected: true }).waitFor();
    });
  },
);
