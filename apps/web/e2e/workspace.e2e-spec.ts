import type { Locator, Page } from 'playwright-core';
import { describeInfra, eventually, expectAccessible, isChromiumInstalled, saveScreenshot } from '@dc/testing';
import { browserTabs, seedStorageOnce } from './browser-tabs';
import { apiLogin, signUpAndActivate, startRealProduct, type RealProduct } from './real-product';

const END_OF_INDEX = "You've reached the end of the index for this search!";

interface Seeded {
  id: string;
  name: string;
}

/**
 * The Workspace against the real product in embedded mode: records seeded through the API (and
 * indexed by the search service from the catalogue's events), browsed anonymously and as their
 * owner and another user, with infinite scroll, the card buttons' rules, deletion and the table's
 * bulk actions.
 */
describeInfra('workspace end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(240_000);
  let product: RealProduct;
  let base: string;
  const tabs = browserTabs();
  const tokens: Record<string, string> = {};
  const alice: Seeded[] = [];
  let alicePrivate: Seeded;
  let bobRequest: Seeded;
  let bobOpen: Seeded;

  async function register(username: string): Promise<string> {
    const password = `Secret words of ${username.length} walkers`;
    await signUpAndActivate(product, {
      username,
      email: `${username}@example.org`,
      password,
      first_name: username,
      last_name: 'Tester',
      description: 'Testing the workspace',
    });
    return apiLogin(product, username, password);
  }

  async function createRecord(token: string, name: string, access: 'OP' | 'RE', visibility: 'EV' | 'PR'): Promise<Seeded> {
    const headers = { authorization: `JWT ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/records/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name, description: `Daily rainfall totals for ${name}`, access }),
    });
    if (created.status !== 201) throw new Error(`record not created: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    if (visibility === 'EV') {
      const list = (await (await fetch(`${base}/api/visibilities/?associated_record=${id}`, { headers })).json()) as { results: Array<{ id: string }> };
      const updated = await fetch(`${base}/api/visibilities/${list.results[0].id}/`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ visibility_selection: 'EV', associated_record: id }),
      });
      if (updated.status !== 200) throw new Error(`visibility not saved: ${updated.status} ${await updated.text()}`);
    }
    return { id, name };
  }

  async function listCount(pathAndQuery: string, token?: string): Promise<number> {
    const response = await fetch(`${base}${pathAndQuery}`, { headers: token ? { authorization: `JWT ${token}` } : {} });
    return ((await response.json()) as { count: number }).count;
  }

  beforeAll(async () => {
    product = await startRealProduct('workspace');
    base = product.base;
    for (const user of ['alice', 'bob', 'carol']) tokens[user] = await register(user);

    // 45 public records of alice (three pages of 20), every other one on request, and one private.
    for (let i = 1; i <= 45; i++) alice.push(await createRecord(tokens.alice, `Rainfall ${String(i).padStart(2, '0')}`, i % 2 ? 'OP' : 'RE', 'EV'));
    alicePrivate = await createRecord(tokens.alice, 'Alice private ledger', 'OP', 'PR');
    bobRequest = await createRecord(tokens.bob, 'Bob census on request', 'RE', 'EV');
    bobOpen = await createRecord(tokens.bob, 'Bob open census', 'OP', 'EV');
    // The search service indexes from the catalogue's events.
    await eventually(async () => expect(await listCount('/api/recordsannon/')).toBe(47), 60_000);
    await eventually(async () => expect(await listCount('/api/records/?view=own', tokens.alice)).toBe(46), 60_000);
    await tabs.launch();
  });

  afterAll(async () => {
    await tabs.close();
    await product?.stop();
  });

  /** A fresh browser profile, signed in as `user` when given, showing the own or all scope. */
  async function open(hash: string, user?: string, scope: 'own' | 'all' = 'all'): Promise<Page> {
    const context = await tabs.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await seedStorageOnce(context, { local: { 'dc.token': user ? tokens[user] : undefined, 'dc.recordsScope': scope } });
    const page = await context.newPage();
    await page.goto(`${base}/#${hash}`);
    await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
    return page;
  }

  const cards = (page: Page) => page.locator('article[data-testid^="record-card-"]');
  const card = (page: Page, record: Seeded) => page.getByTestId(`record-card-${record.id}`);
  const button = (scope: Locator, name: string) => scope.getByRole('button', { name, exact: true });

  /** Scrolls to the end of the list until the end message shows; returns the card counts seen. */
  /**
   * Scrolls until the end message shows; returns every number of cards the list showed on the way.
   * The page records them itself as the list changes: sampled from here, a page that arrived while
   * the sentinel was still in view could be followed by the next one before the test looked.
   */
  async function scrollToEnd(page: Page): Promise<number[]> {
    await page.evaluate(() => {
      const seen = [document.querySelectorAll('article[data-testid^="record-card-"]').length];
      (window as unknown as { cardCounts: number[] }).cardCounts = seen;
      new MutationObserver(() => {
        const count = document.querySelectorAll('article[data-testid^="record-card-"]').length;
        if (seen.at(-1) !== count) seen.push(count);
      }).observe(document.body, { childList: true, subtree: true });
    });
    while (!(await page.getByText(END_OF_INDEX).isVisible())) {
      const shown = await cards(page).count();
      // In one step: the sentinel goes away when the last page arrives, which a count-then-scroll could miss.
      await page.evaluate(() => document.querySelector('[data-testid="scroll-sentinel"]')?.scrollIntoView());
      await page.waitForFunction(
        (before) =>
          document.querySelectorAll('article[data-testid^="record-card-"]').length > before || !!document.querySelector('[data-testid="records-end"]'),
        shown,
      );
    }
    return page.evaluate(() => (window as unknown as { cardCounts: number[] }).cardCounts);
  }

  it('lets anonymous visitors browse public records with infinite scroll to the end message', async () => {
    const page = await open('/records');
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBe(20);
    expect(await page.getByText(END_OF_INDEX).count()).toBe(0);
    expect(await page.getByTestId('records-search-summary').textContent()).toContain('47 records');
    // Anonymous visitors have no project dropdown or own/all toggle.
    expect(await page.getByLabel('Project', { exact: true }).count()).toBe(0);
    expect(await page.getByText('My records').count()).toBe(0);
    await saveScreenshot(page, 'workspace-anonymous');
    await expectAccessible(page, 'workspace-anonymous');

    const counts = await scrollToEnd(page);
    expect(counts.at(-1)).toBe(47);
    expect(counts).toContain(40);
    expect(await card(page, alicePrivate).count()).toBe(0);
    await saveScreenshot(page, 'workspace-anonymous-end');
    await expectAccessible(page, 'workspace-anonymous-end');

    // Cards keep to the spec's width.
    const box = await card(page, alice[0]).boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(300);
    expect(box!.width).toBeLessThanOrEqual(401);
  });

  it('shows anonymous visitors the login prompts and no owner actions', async () => {
    const page = await open('/records?query=Bob');
    const onRequest = card(page, bobRequest);
    await onRequest.waitFor();
    expect(await button(onRequest, 'Data download').count()).toBe(0);
    expect((await button(onRequest, 'Edit record').count()) + (await onRequest.getByRole('link', { name: 'Edit record' }).count())).toBe(0);
    expect(await button(onRequest, 'Delete record').count()).toBe(0);
    await button(onRequest, 'Request').click();
    await page.getByText('Please login to request records.').waitFor();

    const link = button(onRequest, 'Link record');
    expect(await link.getAttribute('aria-disabled')).toBe('true');
    // Its tooltip says why.
    await eventually(async () => {
      // A scroll closes a tooltip about to open: point at the button again if the page was still scrolling.
      await page.mouse.move(0, 0);
      await link.hover();
      await page.getByRole('tooltip').filter({ hasText: 'Please login to link records.' }).waitFor({ timeout: 2_000 });
    });
    // Still focusable and announced (aria-disabled, not disabled): pressing it says why it does nothing.
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Please login to link records.').first().waitFor();

    const open_ = card(page, bobOpen);
    expect(await button(open_, 'Data download').getAttribute('data-owner')).toBe('false');
    expect(await button(open_, 'Request').count()).toBe(0);
    await saveScreenshot(page, 'workspace-anonymous-prompts');
    await expectAccessible(page, 'workspace-anonymous-prompts');
  });

  it('says "No results found." when nothing matches', async () => {
    const page = await open('/records?query=xylophonequartzwombat');
    await page.getByText('No results found.').waitFor();
    expect(await cards(page).count()).toBe(0);
    expect(await page.getByText(END_OF_INDEX).count()).toBe(0);
  });

  it('shows a user with nothing of their own "Start adding data!"', async () => {
    const page = await open('/records', 'carol', 'own');
    const start = page.getByRole('link', { name: 'Start adding data!' });
    await start.waitFor();
    expect(await start.getAttribute('href')).toBe('#/indexdata');
    // All records: the public ones of others.
    await page.getByText('All records', { exact: true }).click();
    await cards(page).first().waitFor();
    expect(await page.getByRole('link', { name: 'Start adding data!' }).count()).toBe(0);
    expect(await page.getByTestId('records-search-summary').textContent()).toContain('47 records');
  });

  it('shows the owner own and all records with the owner buttons', async () => {
    const page = await open('/records', 'alice', 'all');
    await cards(page).first().waitFor();
    expect(await page.getByTestId('records-search-summary').textContent()).toContain('48 records');
    // The project dropdown starts at "All projects"; it lists the organisation's projects.
    const project = page.getByLabel('Project', { exact: true });
    expect(await project.isDisabled()).toBe(false);
    expect(await project.inputValue()).toBe('');

    await page.getByText('My records', { exact: true }).click();
    await eventually(async () => expect(await page.getByTestId('records-search-summary').textContent()).toContain('46 records'));
    const counts = await scrollToEnd(page);
    expect(counts.at(-1)).toBe(46);
    expect(await card(page, bobOpen).count()).toBe(0);
    // The top bar's toggle follows the Workspace's.
    expect(await page.getByRole('banner').getByRole('radio', { name: 'Own' }).isChecked()).toBe(true);

    const own = card(page, alicePrivate);
    expect(await own.getByText('Private', { exact: true }).count()).toBe(1);
    const ownRequestOnly = card(page, alice[1]); // RE, but the owner may download and never requests
    expect(await button(ownRequestOnly, 'Data download').getAttribute('data-owner')).toBe('true');
    expect(await button(ownRequestOnly, 'Request').count()).toBe(0);
    expect(await ownRequestOnly.getByRole('link', { name: 'Edit record' }).getAttribute('href')).toBe(`#/records/edit/${alice[1].id}`);
    expect(await button(ownRequestOnly, 'Delete record').isVisible()).toBe(true);
    expect(await button(ownRequestOnly, 'Link record').getAttribute('aria-disabled')).toBeNull();
    await saveScreenshot(page, 'workspace-owner-own');
    await expectAccessible(page, 'workspace-owner-own');
  });

  it('shows another user Request on records on request and a blue download on open ones', async () => {
    const page = await open('/records?query=Bob', 'alice', 'all');
    const onRequest = card(page, bobRequest);
    await onRequest.waitFor();
    expect(await button(onRequest, 'Data download').count()).toBe(0);
    expect(await onRequest.getByRole('link', { name: 'Edit record' }).count()).toBe(0);
    expect(await button(onRequest, 'Delete record').count()).toBe(0);
    const open_ = card(page, bobOpen);
    expect(await button(open_, 'Data download').getAttribute('data-owner')).toBe('false');
    expect(await button(open_, 'Request').count()).toBe(0);
    await saveScreenshot(page, 'workspace-other-user');
    await expectAccessible(page, 'workspace-other-user');

    // The URL button copies the record's link.
    await button(open_, 'Copy record URL').click();
    await page.getByText('Record link copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/#/records/${bobOpen.id}`);

    // Keyboard: "find similar datasets" is a link reached and followed from the keyboard.
    const similar = open_.getByRole('link', { name: 'Find similar datasets' });
    await similar.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/#/records?refid=${bobOpen.id}`);

    // Request opens the request form of the record.
    await page.goto(`${base}/#/records?query=Bob`);
    await button(card(page, bobRequest), 'Request').click();
    const dialog = page.getByRole('dialog', { name: /^Request:/ });
    await dialog.getByRole('button', { name: 'Send Request' }).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('deletes a record after confirmation', async () => {
    const page = await open('/records?query=Rainfall 45', 'alice', 'own');
    const target = card(page, alice[44]);
    await target.waitFor();
    await button(target, 'Delete record').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this record?').waitFor();
    await saveScreenshot(page, 'workspace-delete-confirm');
    await expectAccessible(page, 'workspace-delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await target.isVisible()).toBe(true);

    await button(target, 'Delete record').click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await target.waitFor({ state: 'detached' });
    await eventually(async () => expect(await listCount('/api/records/?view=own', tokens.alice)).toBe(45));
  });

  it('offers bulk Delete, Edit and Match in the table by the checked rows', async () => {
    const page = await open('/records?query=Census', 'alice', 'all');
    await cards(page).first().waitFor();
    await page.getByRole('button', { name: 'Table' }).click();
    const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
    const rowOf = (record: Seeded) => page.getByTestId(`record-row-${record.id}`);
    await rowOf(bobOpen).waitFor();
    // Others' records: Match with two, never Delete or Edit.
    await page.getByLabel(`Select ${bobOpen.name}`).check();
    expect(await button(bulk, 'Match').count()).toBe(0);
    expect(await button(bulk, 'Delete').count()).toBe(0);
    expect(await button(bulk, 'Edit').count()).toBe(0);
    await page.getByLabel(`Select ${bobRequest.name}`).check();
    await button(bulk, 'Match').waitFor();
    expect(await button(bulk, 'Delete').count()).toBe(0);
    await button(bulk, 'Match').click();
    // Match opens the comparison of the two checked records, each relation on demand.
    const compare = page.getByTestId('compare-dialog');
    await compare.getByTestId('relation-joining').waitFor();
    await compare.getByText(bobOpen.name).first().waitFor();
    await compare.getByText(bobRequest.name).first().waitFor();
    await compare.getByRole('button', { name: 'Close' }).first().click();
    await compare.waitFor({ state: 'detached' });

    // Own records.
    await page.goto(`${base}/#/records?query=Rainfall`);
    await page.locator('tr[data-testid^="record-row-"]').first().waitFor();
    const shown = await page.locator('tr[data-testid^="record-row-"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')));
    const [first, second, third] = alice.filter((record) => shown.includes(`record-row-${record.id}`));
    await page.getByLabel(`Select ${first.name}`, { exact: true }).check();
    await button(bulk, 'Edit').waitFor();
    expect(await button(bulk, 'Delete').isVisible()).toBe(true);
    expect(await button(bulk, 'Match').count()).toBe(0);
    await page.getByLabel(`Select ${second.name}`, { exact: true }).check();
    await button(bulk, 'Match').waitFor();
    expect(await button(bulk, 'Edit').count()).toBe(0);
    expect(await button(bulk, 'Delete').isVisible()).toBe(true);
    await saveScreenshot(page, 'workspace-table-two-checked');
    await expectAccessible(page, 'workspace-table-two-checked');

    await button(bulk, 'Delete').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete these 2 records?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await rowOf(first).waitFor({ state: 'detached' });
    await rowOf(second).waitFor({ state: 'detached' });
    expect(await page.getByTestId('checked-count').textContent()).toBe('0 selected');

    await page.getByLabel(`Select ${third.name}`, { exact: true }).check();
    await button(bulk, 'Edit').click();
    await page.waitForURL(`**/#/records/edit/${third.id}`);
  });
});
