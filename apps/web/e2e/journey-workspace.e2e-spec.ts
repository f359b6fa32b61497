import type { Locator, Page } from 'playwright-core';
import path from 'node:path';
import { describeInfra, eventually, expectAccessible, isChromiumInstalled, saveScreenshot, SCREENSHOTS_DIR } from '@dc/testing';
import { browserTabs, seedStorageOnce } from './browser-tabs';
import { apiCall, founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

interface Seeded {
  id: string;
  name: string;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Issue 25, items 5 and 8, walked as a user against the real product in embedded mode: record cards
 * whose titles open the record, icon buttons with names and visible tooltips, three columns of cards
 * at 1366 px with the sidebar open and one on a 390 px phone, the work area reachable on a phone from
 * a bar at the bottom of the screen, and toasts that cover no control, with a "Log in" link on the
 * anonymous login prompts.
 */
describeInfra(
  'the Workspace journey: cards, the work area on a phone, toasts',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(240_000);
    const DANA_PASSWORD = 'cards in three columns 25';
    let product: RealProduct;
    let dana: SignedIn;
    const tabs = browserTabs();
    const records: Seeded[] = [];

    async function createRecord(name: string, access: 'OP' | 'RE'): Promise<Seeded> {
      const created = await apiCall(product, dana.token, 'POST', '/api/records/', { name, description: `Yearly figures of ${name}`, access });
      if (created.status !== 201) throw new Error(`record not created: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      const list = (await (await apiCall(product, dana.token, 'GET', `/api/visibilities/?associated_record=${id}`)).json()) as {
        results: Array<{ id: string }>;
      };
      const updated = await apiCall(product, dana.token, 'PUT', `/api/visibilities/${list.results[0].id}/`, {
        visibility_selection: 'EV',
        associated_record: id,
      });
      if (updated.status !== 200) throw new Error(`visibility not saved: ${updated.status} ${await updated.text()}`);
      return { id, name };
    }

    beforeAll(async () => {
      product = await startRealProduct('journey-workspace');
      dana = await founder(product, 'dana', DANA_PASSWORD);
      for (const [name, access] of [
        ['Harbour tides 2024', 'OP'],
        ['Harbour tides 2025', 'RE'],
        ['Regional rainfall', 'OP'],
        ['Ferry passengers', 'RE'],
        ['Lighthouse keepers', 'OP'],
        ['Fishing quotas', 'OP'],
      ] as const)
        records.push(await createRecord(name, access));
      // The search service indexes from the catalogue's events.
      await eventually(async () => {
        const response = await fetch(`${product.base}/api/recordsannon/`);
        expect(((await response.json()) as { count: number }).count).toBe(records.length);
      }, 60_000);
      await tabs.launch();
    });

    afterAll(async () => {
      await tabs.close();
      await product?.stop();
    });

    async function open(hash: string, viewport: { width: number; height: number }, signedIn = true): Promise<Page> {
      const context = await tabs.newContext(viewport);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.base });
      await seedStorageOnce(context, { local: { 'dc.token': signedIn ? dana.token : undefined, 'dc.recordsScope': 'all' } });
      const page = await context.newPage();
      await page.goto(`${product.base}/#${hash}`);
      await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
      await cards(page)
        .nth(records.length - 1)
        .waitFor();
      return page;
    }

    /** The screen as the user sees it (the whole page, and what is in view: the bars held at the top and the bottom). */
    async function screenshots(page: Page, name: string): Promise<void> {
      await saveScreenshot(page, name);
      await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}-screen.png`) });
    }

    const cards = (page: Page) => page.locator('article[data-testid^="record-card-"]');
    const card = (page: Page, record: Seeded) => page.getByTestId(`record-card-${record.id}`);
    const box = async (locator: Locator): Promise<Box> => {
      // Once the page is still: a toast slides in on its root, an ancestor of its text, and the work area may be opening.
      await locator.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      );
      const found = await locator.boundingBox();
      if (!found) throw new Error('not visible');
      return found;
    };
    /** How many cards share the first card's row. */
    async function columns(page: Page): Promise<number> {
      const tops = await cards(page).evaluateAll((all) => all.map((element) => Math.round(element.getBoundingClientRect().top)));
      return tops.filter((top) => top === tops[0]).length;
    }

    it('shows three columns of cards at 1366 px with the sidebar open, titles that open the record and named icon buttons', async () => {
      const page = await open('/records', { width: 1366, height: 900 });
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await columns(page)).toBe(3);
      for (const one of await cards(page).all()) {
        const { width } = await box(one);
        expect(width).toBeGreaterThanOrEqual(300);
        expect(width).toBeLessThanOrEqual(401);
      }

      // Every icon-only control of a card has its own name, and says it in a tooltip on hover and on focus.
      const first = card(page, records[0]);
      const iconNames = await first
        .locator('a[aria-label], button[aria-label]')
        .evaluateAll((all) => all.filter((element) => !element.textContent?.trim()).map((element) => element.getAttribute('aria-label')));
      expect(iconNames).toEqual(
        expect.arrayContaining(['Find similar datasets', 'Link record', 'Data download', 'Copy record URL', 'Edit record', 'Delete record']),
      );
      expect(new Set(iconNames).size).toBe(iconNames.length);
      const tooltip = (text: string) => page.getByRole('tooltip').filter({ hasText: text });
      // A scroll closes a tooltip about to open: point at the button again if the page was still scrolling.
      await eventually(async () => {
        await page.mouse.move(0, 0);
        await first.getByRole('link', { name: 'Find similar datasets' }).hover();
        await tooltip('Find similar datasets').waitFor({ timeout: 2_000 });
      });
      await screenshots(page, 'journey-workspace-tooltip');
      // From the keyboard: the next control's tooltip shows on focus.
      await first.getByRole('link', { name: 'Find similar datasets' }).focus();
      await page.keyboard.press('Tab');
      expect(await first.getByRole('button', { name: 'Link record' }).evaluate((element) => element === document.activeElement)).toBe(true);
      await tooltip('Link record (it has no hashed columns)').waitFor();

      // The work area, which does not fit beside three columns here, is a bar at the bottom of the screen, open.
      const dock = page.getByTestId('work-area-dock');
      const area = page.getByTestId('work-area');
      await area.waitFor();
      expect((await box(dock)).y + (await box(dock)).height).toBeLessThanOrEqual(900);
      await card(page, records[2])
        .getByRole('button', { name: `Process ${records[2].name}` })
        .click();
      await area.getByRole('listitem').first().waitFor();
      await dock.getByRole('button', { name: /^Work area: 1 record/ }).waitFor();

      // Its toast covers neither the top bar (search, Own/All, the cog) nor the work area.
      const toast = page.getByRole('status').filter({ hasText: `${records[2].name} is in the work area.` });
      await toast.waitFor();
      const toastBox = await box(toast);
      expect(overlaps(toastBox, await box(page.getByRole('banner')))).toBe(false);
      expect(overlaps(toastBox, await box(dock))).toBe(false);
      await screenshots(page, 'journey-workspace-1366');
      await expectAccessible(page, 'journey-workspace-1366');

      // With the sidebar closed there is room for the work area beside three columns.
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await dock.waitFor({ state: 'detached' });
      await area.getByRole('listitem').first().waitFor();
      expect(await columns(page)).toBe(3);
      expect((await box(area)).x).toBeGreaterThan((await box(card(page, records[2]))).x);

      // The title is a link to the record.
      const title = card(page, records[0]).getByRole('heading', { level: 2 }).getByRole('link', { name: records[0].name });
      expect(await title.getAttribute('href')).toBe(`#/records/${records[0].id}`);
      await title.click();
      await page.waitForURL(`**/#/records/${records[0].id}`);
    });

    it('shows one column on a 390 px phone and opens the work area from the bar at the bottom', async () => {
      const page = await open('/records', { width: 390, height: 844 });
      expect(await columns(page)).toBe(1);
      const dock = page.getByTestId('work-area-dock');
      // In view without scrolling past the cards, closed.
      const bar = dock.getByRole('button', { name: /^Work area: 0 records/ });
      await bar.waitFor();
      const barBox = await box(bar);
      expect(barBox.y + barBox.height).toBeLessThanOrEqual(844);
      expect(await bar.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByTestId('work-area').count()).toBe(0);
      await screenshots(page, 'journey-workspace-390');
      await expectAccessible(page, 'journey-workspace-390');

      for (const record of [records[0], records[2]]) {
        await card(page, record)
          .getByRole('button', { name: `Process ${record.name}` })
          .click();
        await page.getByText(`${record.name} is in the work area.`).waitFor();
      }
      const full = dock.getByRole('button', { name: /^Work area: 2 records/ });
      await full.waitFor();
      // The bar stays at the bottom of the screen wherever the user has scrolled.
      const fullBox = await box(full);
      expect(fullBox.y + fullBox.height).toBeLessThanOrEqual(844);
      expect(fullBox.y).toBeGreaterThan(844 / 2);

      await full.click();
      const area = page.getByTestId('work-area');
      await area.getByRole('listitem').nth(1).waitFor();
      expect(await full.getAttribute('aria-expanded')).toBe('true');
      for (const name of ['Scan to Merge', 'Compare', 'Link Datasets', 'Clear'])
        expect(await area.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
      await screenshots(page, 'journey-workspace-390-work-area');
      await expectAccessible(page, 'journey-workspace-390-work-area');

      // Compare opens the comparison of the two records.
      await area.getByRole('button', { name: 'Compare', exact: true }).click();
      const compare = page.getByTestId('compare-dialog');
      await compare.getByText(records[0].name).first().waitFor();
      await expectAccessible(page, 'journey-workspace-390-compare');
      await compare.getByRole('button', { name: 'Close' }).first().click();
      await compare.waitFor({ state: 'detached' });

      // Scan to Merge shows its results in place of the list; the work area gets out of their way.
      await area.getByRole('button', { name: 'Scan to Merge', exact: true }).click();
      await page.getByTestId('merge-scan-results').waitFor();
      expect(await full.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByTestId('merge-scan-results').isVisible()).toBe(true);

      // Escape closes the open work area and gives the focus back to the bar.
      await full.click();
      await area.getByRole('button', { name: 'Clear', exact: true }).focus();
      await page.keyboard.press('Escape');
      await area.waitFor({ state: 'detached' });
      expect(await full.evaluate((element) => element === document.activeElement)).toBe(true);
    });

    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      it(`gives anonymous visitors a "Log in" link on the login prompts, clear of the Login button, at ${viewport.width} px`, async () => {
        const page = await open('/records', viewport, false);
        const login = page.getByRole('banner').getByRole('link', { name: 'Login' });
        await card(page, records[1]).getByRole('button', { name: 'Request', exact: true }).click();
        const toast = page.getByRole('status').filter({ hasText: 'Please login to request records.' });
        await toast.waitFor();
        // A keyboard user reaching the link pauses the toasts (they would go after 6 s, the pictures and
        // the accessibility pass below can take longer on a busy machine).
        await toast.getByRole('link', { name: 'Log in' }).focus();
        await toast.and(page.locator('[data-paused]')).waitFor();
        expect(overlaps(await box(toast), await box(login))).toBe(false);
        const dock = page.getByTestId('work-area-dock');
        if (await dock.count()) expect(overlaps(await box(toast), await box(dock))).toBe(false);
        await screenshots(page, `journey-workspace-login-prompt-${viewport.width}`);
        await expectAccessible(page, `journey-workspace-login-prompt-${viewport.width}`);
        await toast.getByRole('link', { name: 'Log in' }).click();
        await page.waitForURL('**/#/login');
        await page.getByRole('textbox', { name: /username/i }).waitFor();

        // The record details' "Please login to request a record!" has the link too.
        await page.goto(`${product.base}/#/records/${records[1].id}`);
        await page.getByRole('button', { name: 'Request', exact: true }).click();
        const prompt = page.getByRole('status').filter({ hasText: 'Please login to request a record!' });
        await prompt.waitFor();
        expect(overlaps(await box(prompt), await box(login))).toBe(false);
        await prompt.getByRole('link', { name: 'Log in' }).click();
        await page.waitForURL('**/#/login');
        // Signing in brings the visitor back to the record they wanted, not to the records list.
        await page.getByRole('textbox', { name: /username/i }).fill(dana.username);
        await page.getByLabel(/^Password/).fill(DANA_PASSWORD);
        await page.getByRole('button', { name: 'Login', exact: true }).click();
        await page.waitForURL(`**/#/records/${records[1].id}`);
        await page.getByRole('heading', { level: 1, name: records[1].name }).waitFor();
      });
    }
  },
);
