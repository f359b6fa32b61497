import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, isChromiumInstalled } from '@dc/testing';
import { browserTabs } from './browser-tabs';
import { apiCall, founder, type SignedIn, startRealProduct, type RealProduct } from './real-product';

/**
 * Accessibility against the real product in embedded mode: axe-core on every screen and tab with
 * real data (the feature suites check the states they reach too), and the main flow done with the
 * keyboard alone (sign in, search, open a record), every stop showing where the focus is.
 */
describeInfra('accessibility end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(300_000);
  const PASSWORD = 'accessible to everyone 7';
  const RECORD = 'gdp.csv';
  let product: RealProduct;
  const tabs = browserTabs();
  let kim: SignedIn;
  let recordId: string;

  beforeAll(async () => {
    product = await startRealProduct('accessibility');
    kim = await founder(product, 'kim', PASSWORD);
    const form = new FormData();
    // With samples, so the record has a Word Set tab too.
    form.append('extractOption', 'samples');
    form.append('file', new Blob([readFileSync(path.join(DATASETS, 'csv', RECORD))], { type: 'text/csv' }), RECORD);
    const created = await fetch(`${product.base}/api/records/`, { method: 'POST', headers: { authorization: `JWT ${kim.token}` }, body: form });
    expect(created.status).toBe(201);
    recordId = ((await created.json()) as { id: string }).id;
    // Searchable once the search service has indexed it from the catalogue's events.
    await eventually(async () => {
      const found = (await (await apiCall(product, kim.token, 'GET', `/api/records/?query=${encodeURIComponent(RECORD)}`)).json()) as { count: number };
      expect(found.count).toBe(1);
    }, 120_000);
    await tabs.launch();
  });

  afterAll(async () => {
    await tabs.close();
    await product?.stop();
  });

  /** A desktop and a phone: every screen is checked at both widths. */
  const VIEWPORTS = [
    { name: 'at 1366 px', width: 1366, height: 900 },
    { name: 'on a 390 px phone', width: 390, height: 844 },
  ];

  async function open(hash: string, token?: string, viewport = VIEWPORTS[0]): Promise<Page> {
    const context = await tabs.newContext({ width: viewport.width, height: viewport.height });
    if (token) await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), token);
    const page = await context.newPage();
    await page.goto(`${product.base}/#${hash}`);
    return page;
  }

  const at = (screen: string, viewport: (typeof VIEWPORTS)[number]) => `${screen} ${viewport.name}`;
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

  it.each(VIEWPORTS)('has no serious or critical axe-core violation on the guest screens $name', async (viewport) => {
    const page = await open('/', undefined, viewport);
    await page.getByPlaceholder('Search for data').waitFor();
    await expectAccessible(page, at('Home', viewport));
    for (const [hash, title] of [
      ['/login', 'Login'],
      ['/register', 'Sign Up'],
      ['/passreset', 'Password Reset'],
      ['/records', 'Workspace'],
    ]) {
      await page.goto(`${product.base}/#${hash}`);
      await heading(page, title).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, at(title, viewport));
    }
    // The forms with their validation messages showing.
    await page.goto(`${product.base}/#/register`);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await expectAccessible(page, at('Sign Up with errors', viewport));

    // A button at work (its request held here) still has a name: Chakra hides its label behind the spinner.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The client calls /api-token-auth/ (trailing slash), which a glob's * would not cover.
    const tokenEndpoint = (url: URL) => url.pathname.startsWith('/api-token-auth');
    await page.route(tokenEndpoint, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${product.base}/#/login`);
    await page.getByLabel(/^Username/).fill(kim.username);
    await page.getByLabel(/^Password/).fill('not the password 9');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const working = page.locator('button[data-loading]');
    await working.waitFor();
    expect(await working.getAttribute('disabled')).not.toBeNull();
    await expectAccessible(page, at('Login while signing in', viewport));
    const answered = page.waitForResponse((response) => tokenEndpoint(new URL(response.url())));
    release();
    expect((await answered).status()).toBe(400);
    await page.unroute(tokenEndpoint);
  });

  it.each(VIEWPORTS)('has no serious or critical axe-core violation on the signed-in screens and tabs $name', async (viewport) => {
    const page = await open('/records', kim.token, viewport);
    const tab = (name: string) => page.getByRole('tab', { name, exact: true });
    await page.getByTestId(`record-card-${recordId}`).waitFor();
    await expectAccessible(page, at('Workspace (grid)', viewport));
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    await page.getByTestId(`record-row-${recordId}`).waitFor();
    await expectAccessible(page, at('Workspace (table)', viewport));
    await page.getByRole('button', { name: 'Grid', exact: true }).click();
    await page
      .getByTestId(`record-card-${recordId}`)
      .getByRole('button', { name: /^Process/ })
      .click();
    if (viewport.width < 768) {
      // On a phone the work area is a closed bar at the bottom of the screen until opened.
      const bar = page.getByTestId('work-area-dock').getByRole('button', { name: /^Work area: 1 record/ });
      await bar.click();
    }
    await page.getByTestId('work-area').getByRole('listitem').first().waitFor();
    await expectAccessible(page, at('Workspace with the work area', viewport));

    await page.goto(`${product.base}/#/records/${recordId}`);
    // The record's name titles the page once it is loaded ("Record details" shows only until then).
    await heading(page, RECORD).waitFor();
    await tab('File Metadata').waitFor({ timeout: 120_000 });
    for (const name of ['File Metadata', 'Statistics', 'Sample Values', 'Formatted Values', 'Word Set', 'Table Metadata', 'Projects', 'Access']) {
      await tab(name).click();
      await page.getByRole('tabpanel', { name, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, at(`Record details: ${name}`, viewport));
    }
    await page.goto(`${product.base}/#/records/edit/${recordId}`);
    await heading(page, `Edit record: ${RECORD}`).waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, at('Edit record', viewport));

    await page.goto(`${product.base}/#/indexdata`);
    for (const name of ['Index Files', 'Index Database Table', 'Index AWS S3 Objects', 'Private Indexing']) {
      await tab(name).click();
      // The tab's panel is mounted on first visit: check once it is there, not while the trigger already points to it.
      await page.getByRole('tabpanel', { name, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, at(`Add data: ${name}`, viewport));
    }
    await page.goto(`${product.base}/#/profile`);
    await page.getByText('Signed in as kim').waitFor();
    for (const name of ['Profile', 'Organisation', 'Accounts', 'Credentials']) {
      await tab(name).click();
      await page.getByRole('tabpanel', { name, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, at(`Profile: ${name}`, viewport));
    }
    for (const [hash, title] of [
      ['/request', 'Requests'],
      ['/access-policies', 'Access Policies'],
      ['/groups', 'Projects'],
      ['/jobs', 'Backend Jobs'],
    ]) {
      await page.goto(`${product.base}/#${hash}`);
      await heading(page, title).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, at(title, viewport));
    }
  });

  /** The focused element's accessible description for messages, and whether a focus indicator is drawn. */
  async function focused(page: Page): Promise<{ label: string; indicated: boolean }> {
    return page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return { label: '(nothing)', indicated: true };
      const style = getComputedStyle(element);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const ring = style.boxShadow !== 'none' && style.boxShadow !== '';
      const label = `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60)}"`;
      return { label, indicated: outline || ring };
    });
  }

  /**
   * Presses Tab until `target` has the focus, checking that every element passed shows it has the
   * focus (a press may also leave the page for the browser's own controls, as after a page change).
   */
  async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
    for (let presses = 0; presses < maxPresses; presses++) {
      await page.keyboard.press('Tab');
      const stop = await focused(page);
      if (!stop.indicated) throw new Error(`no visible focus indicator on ${stop.label}`);
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
    throw new Error(`${maxPresses} presses of Tab did not reach ${target}`);
  }

  it('signs in, searches and opens a record with the keyboard alone, the focus always visible', async () => {
    const page = await open('/');
    await page.getByPlaceholder('Search for data').waitFor();
    await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Login' }));
    await page.keyboard.press('Enter');
    await heading(page, 'Login').waitFor();

    await tabTo(page, page.getByLabel(/^Username/));
    await page.keyboard.type(kim.username);
    await tabTo(page, page.getByLabel(/^Password/));
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await heading(page, 'Workspace').waitFor();

    await tabTo(page, page.getByRole('search', { name: 'Search records' }).getByRole('searchbox'));
    await page.keyboard.type(RECORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/#/records?query=${RECORD}`);
    const card = page.getByTestId(`record-card-${recordId}`);
    await card.waitFor();

    await tabTo(page, card.getByRole('link', { name: /^Open .* details of / }), 120);
    await page.keyboard.press('Enter');
    // The record's name titles the page once it is loaded: "Record details" shows only until then, too
    // briefly to be caught when the answer comes first.
    await heading(page, RECORD).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/records/${recordId}`);
    // The record's tabs are reached and switched from the keyboard too.
    const firstTab = page.getByRole('tab', { selected: true });
    await tabTo(page, firstTab, 120);
    const firstLabel = await firstTab.textContent();
    await page.keyboard.press('ArrowRight');
    // The next tab is selected and holds the focus (React renders the change a moment after the key).
    await page.waitForFunction(
      (label) =>
        document.activeElement?.getAttribute('role') === 'tab' &&
        document.activeElement.getAttribute('aria-selected') === 'true' &&
        document.activeElement.textContent !== label,
      firstLabel,
      { timeout: 10_000 },
    );
  });
});
