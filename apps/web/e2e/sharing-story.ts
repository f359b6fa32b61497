// The data-sharing story of the browser suites, run against the product in either run mode.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { DATASETS, eventually, expectAccessible, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, founder, newestMail, type RealProduct, type SignedIn } from './real-product';

const CSV = 'csv/co2-annmean-gl.csv';
const RECORD = 'Global CO2 means';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Two organisations through the whole story, in a real browser: A writes an access policy and a
 * project and publishes a Request-access record with the policy; B finds it, requests it answering
 * the policy and writes a message; A sees the request in Received Requests (it moves to review),
 * answers in the thread and approves with an expiry; B downloads the file (the bytes equal the
 * upload); A revokes; B's download stops; A reads the audit trail; B closes the request.
 * Screenshots of each screen go to test-artifacts/screenshots/<prefix>-*.png.
 */
export function sharingStory(prefix: string, start: () => Promise<RealProduct>): void {
  let product: RealProduct;
  let browser: Browser;
  let alice: SignedIn;
  let bruno: SignedIn;
  let a: { context: BrowserContext; page: Page };
  let b: { context: BrowserContext; page: Page };
  let recordId: string;
  let requestId: string;
  /** The link B's download followed while approved. */
  let signedLink: string;
  const upload = readFileSync(`${DATASETS}/${CSV}`);
  const shot = (page: Page, name: string) => saveScreenshot(page, `${prefix}-${name}`);
  const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

  async function signedIn(who: SignedIn) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), who.token);
    return { context, page: await context.newPage() };
  }

  beforeAll(async () => {
    product = await start();
    browser = await launchChromium();
    alice = await founder(product, 'alice', 'shared rainfall 2024', { first_name: 'Alice', last_name: 'Owner' });
    bruno = await founder(product, 'bruno', 'marine survey 2024', { first_name: 'Bruno', last_name: 'Requestor' });
    const named = await apiCall(product, bruno.token, 'PUT', `/api/organisation/${bruno.organisation}/`, {
      name: 'Blue Marine Lab',
      description: 'Ocean and coastal research',
    });
    expect(named.status).toBe(200);
    await apiCall(product, alice.token, 'PUT', `/api/organisation/${alice.organisation}/`, { name: 'Acme Climate' }).then((r) => expect(r.status).toBe(200));
    a = await signedIn(alice);
    b = await signedIn(bruno);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('A writes an access policy and a project', async () => {
    const { page } = a;
    await page.goto(`${product.base}/#/access-policies`);
    await page.getByTestId('policies-empty').waitFor();
    await button(page, 'New Policy').click();
    const dialog = page.getByRole('dialog', { name: 'New Access Policy' });
    await dialog.getByLabel('Name').fill('Research only');
    await dialog.getByLabel('Topic 1').fill('Ethics');
    await dialog.getByLabel('Requirement 1').fill('An approved ethics protocol');
    await button(dialog, 'Add row').click();
    await dialog.getByLabel('Topic 2').fill('Resale');
    await dialog.getByLabel('Requirement 2').fill('You will sell the data');
    await dialog.getByLabel('Requestor option 2').selectOption('no');
    await shot(page, 'policy-new');
    await expectAccessible(page, `${prefix}-policy-new`);
    await button(dialog, 'Save changes').click();
    await toast(page, 'Access Policy was created/edited successfully!');
    await page.getByRole('article', { name: 'Research only' }).waitFor();
    await shot(page, 'policies');
    await expectAccessible(page, `${prefix}-policies`);

    await page.goto(`${product.base}/#/groups`);
    await page.getByText('No existing projects.').waitFor();
    await button(page, 'New Project').click();
    const group = page.getByRole('dialog', { name: 'New Project' });
    await group.getByLabel('Name').fill('Hydrology');
    await group.getByLabel('Description').fill('Rain, rivers and floods');
    await button(group, 'Add field').click();
    await group.getByLabel('Label 1').fill('Lead');
    await group.getByLabel('Text 1').fill('Alice');
    await button(group, 'Save').click();
    await toast(page, 'Record Group was created/edited successfully!');
    await page.getByTestId('group-item').getByText('Hydrology').waitFor();
    await page.getByTestId('group-item').getByRole('button').first().click();
    await page.getByText('Rain, rivers and floods').waitFor();
    await shot(page, 'groups');
    await expectAccessible(page, `${prefix}-groups`);
  });

  it('A publishes a Request-access record with the policy, in the project, visible to everyone', async () => {
    const form = new FormData();
    form.append('file', new Blob([upload], { type: 'text/csv' }), 'co2-annmean-gl.csv');
    form.append('name', RECORD);
    form.append('access', 'RE');
    const created = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${alice.token}` }, body: form });
    expect(created.status).toBe(201);
    recordId = ((await created.json()) as { id: string }).id;

    const { page } = a;
    await page.goto(`${product.base}/#/records/edit/${recordId}`);
    const policy = page.locator('select[name="policy"]');
    await policy.waitFor();
    await eventually(async () => expect(await policy.locator('option', { hasText: 'Research only' }).count()).toBe(1));
    await policy.selectOption({ label: 'Research only' });
    await page
      .locator('label')
      .filter({ hasText: /^Hydrology$/ })
      .click();
    await page.locator('select[name="visibility"]').selectOption('EV');
    await shot(page, 'record-edit-policy-groups');
    await expectAccessible(page, `${prefix}-record-edit-policy-groups`);
    await button(page, 'Save').click();
    await page.waitForURL(`**/#/records/${recordId}`);
    await page.getByRole('tab', { name: 'Projects' }).click();
    await page.getByRole('link', { name: 'Hydrology' }).waitFor();
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.getByText('Research only').waitFor();

    // The project filter of the Workspace shows it.
    await page.goto(`${product.base}/#/records`);
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Hydrology' });
    const card = page.getByTestId(`record-card-${recordId}`);
    // The search index follows the catalogue through events (over Kafka in distributed mode): until it
    // has applied the record's project, the filtered list is empty, as a person who reloads then sees.
    // The summary counts the filtered list once it has answered (the unfiltered one may still show).
    const filtered = page.getByTestId('records-search-summary').filter({ hasText: /in the project Hydrology · [\d,]+\+? records?/ });
    await eventually(async () => {
      await filtered.waitFor();
      if ((await card.count()) === 0) {
        await page.reload();
        throw new Error('the search index has not applied the project yet');
      }
    }, 60_000);
    await card.waitFor();
    await shot(page, 'workspace-project');
    await expectAccessible(page, `${prefix}-workspace-project`);
    // The card's Project button shows the projects holding the record.
    await card.getByRole('button', { name: /to a project$/ }).click();
    const projects = page.getByRole('dialog', { name: /^Projects of / });
    await eventually(async () => expect(await projects.getByRole('checkbox', { name: 'Hydrology' }).isChecked()).toBe(true));
    await shot(page, 'card-projects');
    await expectAccessible(page, `${prefix}-card-projects`);
    await button(projects, 'Close').click();
  });

  it('B finds it, requests it answering the policy, and the owner side is mailed', async () => {
    const { page } = b;
    await page.goto(`${product.base}/#/records?query=${encodeURIComponent(RECORD)}`);
    const card = page.getByTestId(`record-card-${recordId}`);
    // The search service hears of the record through an event; as for the project above, a loaded
    // machine (CI builds a container image beside this) can take longer than the default wait.
    await eventually(async () => {
      await page.reload();
      await card.waitFor({ timeout: 2_000 });
    }, 60_000);
    expect(await button(card, 'Data download').count()).toBe(0);
    await button(card, 'Request').click();
    const dialog = page.getByRole('dialog', { name: /^Request: / });
    await button(dialog, 'Send Request').waitFor();
    await dialog.getByLabel('Purpose').fill('Flood risk study for the Baltic coast');
    await dialog
      .getByRole('row', { name: /Ethics/ })
      .getByText('Yes', { exact: true })
      .click();
    await dialog
      .getByRole('row', { name: /Resale/ })
      .getByText('No', { exact: true })
      .click();
    await shot(page, 'request-form');
    await expectAccessible(page, `${prefix}-request-form`);
    await button(dialog, 'Send Request').click();
    await toast(page, 'Your request was submitted. You will be notified once it has been approved by the data administator.');
    await dialog.getByTestId('request-status').filter({ hasText: 'sent' }).waitFor();
    expect(await dialog.getByTestId('request-note').textContent()).toBe('< None stated >');
    await shot(page, 'request-sent');
    await expectAccessible(page, `${prefix}-request-sent`);
    await button(dialog, 'Close').click();
    // The card reads the status from the search service, which hears of the request through an event.
    await eventually(async () => {
      await page.reload();
      expect(await button(card, 'Request sent').isDisabled({ timeout: 2_000 })).toBe(true);
    }, 60_000);

    const mail = await newestMail(product, alice.email, /New data request/);
    expect(mail.text).toContain('bruno of Blue Marine Lab asks for access to "Global CO2 means".');
    expect(mail.text).toContain(`${product.base}/#/request?tab=received&id=`);
    requestId = /id=([0-9a-f-]{36})/.exec(mail.text ?? '')![1];
  });

  it('B writes a message in the thread of the sent request', async () => {
    const { page } = b;
    await page.goto(`${product.base}/#/request?tab=sent&id=${requestId}`);
    const panel = page.getByTestId('request-panel');
    await panel.getByText('Flood risk study for the Baltic coast').waitFor();
    await panel.getByLabel('Message', { exact: true }).fill('Could we also get the 2023 revision?');
    await button(panel, 'Send message').click();
    await panel.getByTestId('message').filter({ hasText: 'Could we also get the 2023 revision?' }).waitFor();
    await shot(page, 'requests-mine');
    await expectAccessible(page, `${prefix}-requests-mine`);
  });

  it('A sees it in Received Requests (the default tab); opening it moves it to review; A answers and B sees it without reloading', async () => {
    const { page } = a;
    await page.goto(`${product.base}/#/request`);
    await page.getByRole('tab', { name: 'Received Requests', selected: true }).waitFor();
    const item = page.getByTestId('request-item').filter({ hasText: RECORD });
    await item.waitFor();
    await item.click();
    const panel = page.getByTestId('request-panel');
    await panel.getByTestId('request-status').filter({ hasText: 'review' }).waitFor();
    expect(await panel.getByTestId('requestor-org-name').textContent()).toBe('Blue Marine Lab');
    expect(await panel.getByTestId('requestor-org-desc').textContent()).toBe('Ocean and coastal research');
    expect(await panel.getByTestId('policy-answer').allTextContents()).toEqual(['Yes', 'No']);
    await panel.getByText('Could we also get the 2023 revision?').waitFor();
    await panel.getByLabel('Message', { exact: true }).fill('Only 2024 for now; approving it.');
    await button(panel, 'Send message').click();
    await panel.getByTestId('message').filter({ hasText: 'Only 2024 for now' }).waitFor();
    await shot(page, 'requests-received');
    await expectAccessible(page, `${prefix}-requests-received`);

    // B's open thread shows the answer on its own (polled), no reload.
    await b.page.getByTestId('request-panel').getByText('Only 2024 for now; approving it.').waitFor({ timeout: 20_000 });
  });

  it('A approves with an expiry after the confirmation; B is mailed and sees the term', async () => {
    const { page } = a;
    const panel = page.getByTestId('request-panel');
    await button(panel, 'Approve').click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText('Are you sure you want to approve this request? This will allow requestors to download the data if stored on the product.')
      .waitFor();
    await confirm.getByLabel('Access expires on (optional)').fill(inDays(30));
    await shot(page, 'approve-confirm');
    await expectAccessible(page, `${prefix}-approve-confirm`);
    await button(confirm, 'Approve').click();
    await toast(page, 'You have approved the request!');
    await panel
      .getByTestId('grant-term')
      .filter({ hasText: `Access until ${inDays(30)}.` })
      .waitFor();
    await shot(page, 'request-approved');
    await expectAccessible(page, `${prefix}-request-approved`);
    const mail = await newestMail(product, bruno.email, /was approved/);
    expect(mail.text).toContain(`Your access ends on ${inDays(30)}.`);
  });

  it('B downloads the file: the bytes equal the upload', async () => {
    const { page, context } = b;
    await page.goto(`${product.base}/#/records/${recordId}`);
    const download = button(page, 'Download');
    await eventually(async () => {
      await page.reload();
      await download.waitFor({ timeout: 2_000 });
    });
    await shot(page, 'record-approved-requestor');
    await expectAccessible(page, `${prefix}-record-approved-requestor`);
    // The new window the download opens follows the signed link; the browser saves the file.
    const saved = new Promise<Download>((resolve) => context.once('page', (popup) => popup.once('download', resolve)));
    await download.click();
    const file = await (await saved).path();
    expect(readFileSync(file).equals(upload)).toBe(true);
    signedLink = (await saved).url();
    for (const other of context.pages()) if (other !== page) await other.close();
    // The download under the grant reaches the requests service's audit trail (an event from the catalogue).
    await eventually(async () => {
      const trail = (await (await apiCall(product, alice.token, 'GET', `/api/requests/audit/?record=${recordId}`)).json()) as {
        results: Array<{ action: string; actor: string }>;
      };
      expect(trail.results.filter((e) => e.action === 'download').map((e) => e.actor)).toEqual(['bruno']);
    });
  });

  it("A revokes with a reason; B's download stops", async () => {
    const { page } = a;
    const panel = page.getByTestId('request-panel');
    await button(panel, 'Revoke access').click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByLabel('Reason').fill('The licence with our data provider ended.');
    await button(confirm, 'Revoke access').click();
    await toast(page, 'Access to the data was revoked.');
    await panel.getByTestId('request-status').filter({ hasText: 'revoked' }).waitFor();
    await panel.getByTestId('message').filter({ hasText: 'Access revoked: The licence with our data provider ended.' }).waitFor();

    // The catalogue hears of the revocation through an event; its record details say so first (asking for links would issue them meanwhile).
    await eventually(async () =>
      expect(((await (await apiCall(product, bruno.token, 'GET', `/api/records/${recordId}/`)).json()) as { request_status: string }).request_status).toBe(
        'revoked',
      ),
    );
    expect((await apiCall(product, bruno.token, 'GET', `/api/records/${recordId}/download/`)).status).toBe(403);
    // The link B followed while approved is refused now.
    expect((await fetch(signedLink)).status).toBe(403);
    await b.page.reload();
    await button(b.page, 'Request revoked').waitFor();
    expect(await button(b.page, 'Download').count()).toBe(0);
    await shot(b.page, 'record-revoked-requestor');
    await expectAccessible(b.page, `${prefix}-record-revoked-requestor`);
  });

  it("A reads the record's hash-chained audit trail in the Access tab", async () => {
    const { page } = a;
    await page.goto(`${product.base}/#/records/${recordId}`);
    await page.getByRole('tab', { name: 'Access' }).click();
    await eventually(async () =>
      expect(await page.getByTestId('audit-action').allTextContents()).toEqual([
        'Request opened',
        'Request sent',
        'Review started',
        'Approved',
        'Downloaded under the grant',
        'Access revoked',
      ]),
    );
    await shot(page, 'audit-trail');
    await expectAccessible(page, `${prefix}-audit-trail`);
  });

  it('B closes the request after the confirmation: it is gone and cannot be reopened', async () => {
    const { page } = b;
    await page.goto(`${product.base}/#/request?tab=sent&id=${requestId}`);
    const panel = page.getByTestId('request-panel');
    await button(panel, 'Withdraw request').click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Are you sure you want to close this request? You cannot re-open a closed request.').waitFor();
    await button(confirm, 'Withdraw request').click();
    await toast(page, 'Your request was closed.');
    await page.getByTestId('requests-empty-sent').waitFor();
    expect((await apiCall(product, bruno.token, 'PUT', `/api/requests/${requestId}/`, { status: 'sent' })).status).toBe(400);
    await shot(page, 'requests-closed');
    await expectAccessible(page, `${prefix}-requests-closed`);
    await a.page.goto(`${product.base}/#/request?tab=received`);
    await a.page.getByText('You have no inbound data requests pending.').waitFor();
  });
}
