import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  createTestMysqlDatabase,
  DATASETS,
  describeInfra,
  expectAccessible,
  isChromiumInstalled,
  launchChromium,
  saveScreenshot,
  TEST_MYSQL,
  type TestMysqlDatabase,
} from '@dc/testing';
import { founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

const READER_PASSWORD = 'reader of the journey 4';
const LINKAGE_KEY_TEXT = Buffer.alloc(32, 7).toString('base64url');
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Issue 25, items 3 and 6, walked as a newcomer does: the database form defaults its port per
 * type and says what failed when a test fails (wrong port, login, database, an address the operator
 * does not allow, a host that does not answer in time); the column selection modal, in both its
 * variants, shows why it refuses beside its button and moves the focus to the linkage key.
 */
describeInfra(
  'Journey: a database connection, the column choices and projects',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(300_000);
    let product: RealProduct;
    let browser: Browser;
    let page: Page;
    let ada: SignedIn;
    let maria: TestMysqlDatabase;
    let silent: Server;
    const held: Socket[] = [];
    let silentPort: number;
    let closedPort: number;
    const reader = `dc_journey_${Date.now().toString(36)}`;

    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const field = (label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));
    const message = () => page.getByTestId('connection-message');
    /** Ticks a checkbox the way a keyboard user does (Chakra draws its box over the input). */
    async function tick(scope: Locator, name: string) {
      const box = scope.getByRole('checkbox', { name, exact: true });
      await box.focus();
      await box.press('Space');
      expect(await box.isChecked()).toBe(true);
    }
    /** Waits until the focused element is the linkage key field, fully visible inside the open dialog. */
    async function focusedKeyInDialog() {
      await page.waitForFunction(() => {
        const active = document.activeElement as HTMLElement | null;
        const dialog = active?.closest('[role="dialog"]');
        if (!active || active.getAttribute('name') !== 'linkageKey' || !dialog) return false;
        // The dialog's scrolling body: the nearest ancestor that scrolls.
        let scroller: HTMLElement = active.parentElement ?? active;
        while (scroller !== dialog && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement ?? (dialog as HTMLElement);
        const field = active.getBoundingClientRect();
        const body = scroller.getBoundingClientRect();
        return field.top >= body.top && field.bottom <= body.bottom && field.bottom <= window.innerHeight && field.top >= 0;
      });
    }
    /**
     * A screenshot of an open dialog: the page behind it is taller than the window, and a full-page
     * capture would show the window's fixed backdrop over only part of it, so the window is made as
     * tall as the page for the shot.
     */
    async function dialogShot(name: string) {
      const size = page.viewportSize() ?? DESKTOP;
      const height = await page.evaluate(() => {
        window.scrollTo(0, 0);
        return document.documentElement.scrollHeight;
      });
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
      await saveScreenshot(page, name);
      await page.setViewportSize(size);
    }
    async function testConnection(values: { host?: string; port?: string; name?: string; username?: string; password?: string }) {
      for (const [label, value] of [
        ['Host', values.host ?? TEST_MYSQL.host],
        ['Port', values.port ?? String(TEST_MYSQL.port)],
        ['Database name', values.name ?? maria.name],
        ['Username', values.username ?? reader],
        ['Password', values.password ?? READER_PASSWORD],
      ])
        await field(label).fill(value);
      await button('Test').click();
      await message().waitFor();
      await page.getByRole('button', { name: 'Test', exact: true, disabled: false }).waitFor();
    }

    beforeAll(async () => {
      maria = await createTestMysqlDatabase('dc_journey_sources');
      await maria.connection.query('CREATE TABLE people (`Name` TEXT, `Email` TEXT, `City` TEXT, `Age` INT)');
      await maria.connection.query('INSERT INTO people VALUES ?', [
        Array.from({ length: 40 }, (_, i) => [`Person ${i}`, `person${i}@example.org`, ['Ottawa', 'Lyon', 'Porto'][i % 3], 20 + i]),
      ]);
      await maria.connection.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${READER_PASSWORD}'; GRANT SELECT ON \`${maria.name}\`.* TO '${reader}'@'%'`);
      // A listener that accepts and never answers (what a firewall dropping packets looks like), and a closed port.
      silent = createServer((socket) => held.push(socket.on('error', () => undefined)));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentPort = (silent.address() as AddressInfo).port;
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      closedPort = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));

      product = await startRealProduct('journey-sources', { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' });
      ada = await founder(product, 'ada', 'analytical engine 1843');
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: DESKTOP });
      await context.addInitScript((jwt) => localStorage.setItem('dc.token', jwt), ada.token);
      page = await context.newPage();
    });

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent?.close(resolve));
      await maria?.connection.query(`DROP USER IF EXISTS '${reader}'@'%'`).catch(() => undefined);
      await maria?.drop();
    });

    it('defaults the port per database type and says what failed when a test fails', async () => {
      await page.goto(`${product.base}/#/indexdata?tab=database`);
      await field('Host').waitFor();
      expect(await field('Port').inputValue()).toBe('5432');
      await page.getByLabel('Database type').selectOption('mysql');
      expect(await field('Port').inputValue()).toBe('3306');
      await page.getByLabel('Database type').selectOption('postgresql');
      expect(await field('Port').inputValue()).toBe('5432');
      // A port of the user's own stays whatever the type.
      await field('Port').fill('6543');
      await page.getByLabel('Database type').selectOption('mysql');
      expect(await field('Port').inputValue()).toBe('6543');
      await field('Port').fill('3306');

      await testConnection({ port: String(closedPort) });
      await message().getByText('Testing connection failed...').waitFor();
      await message().getByText(`refused the connection on port ${closedPort}: nothing listens there`, { exact: false }).waitFor();
      await saveScreenshot(page, 'journey-sources-database-refused');
      await expectAccessible(page, 'journey-sources-database-refused');
      expect(await button('Connect').isDisabled()).toBe(true);

      await testConnection({ password: 'not the password' });
      await message().getByText('The database refused the login: check the username and the password.').waitFor();

      await testConnection({ name: 'no_such_database' });
      await message().getByText('no database named no_such_database', { exact: false }).waitFor();

      // Any address the operator did not allow: the same words, whatever listens there.
      for (const host of ['10.1.2.3', '127.0.0.2']) {
        await testConnection({ host });
        await message().getByText('The catalogue may not connect to this address', { exact: false }).waitFor();
        await message().getByText('ALLOWED_PRIVATE_ENDPOINTS', { exact: false }).waitFor();
      }
      await saveScreenshot(page, 'journey-sources-database-not-allowed');

      await testConnection({ port: String(silentPort) });
      await message().getByText(`did not answer on port ${silentPort} within 5 s`, { exact: false }).waitFor();
      await saveScreenshot(page, 'journey-sources-database-timeout');

      await page.setViewportSize(PHONE);
      await expectAccessible(page, 'journey-sources-database-timeout-phone');
      await page.setViewportSize(DESKTOP);

      await testConnection({});
      await page.getByText('The connection test passed.').waitFor();
      await button('Connect').click();
      await page.getByText(`The connection to ${maria.name} was added.`).waitFor();
    });

    it('database tab: Create Metadata Record with a hashed column and no key says why beside the button and focuses the key', async () => {
      await page.goto(`${product.base}/#/indexdata?tab=database`);
      await page.getByRole('button', { name: `Select ${maria.name}` }).click();
      await page.getByRole('button', { name: 'Index Table people' }).click();
      const modal = page.getByTestId('column-selection');
      await modal.getByTestId('total-rows').getByText('Total rows: 40').waitFor();
      await tick(modal, 'Hash Email');
      await modal.getByRole('button', { name: 'Create Metadata Record' }).click();
      const error = modal.getByTestId('column-selection-error');
      await error.getByText('Give your linkage key to hash columns.').waitFor();
      await focusedKeyInDialog();
      // The key field says it too, and the button is described by the reason.
      await modal.getByTestId('linkage-key').getByText('Give your linkage key to hash columns.').waitFor();
      expect(await modal.getByRole('button', { name: 'Create Metadata Record' }).getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
      await dialogShot('journey-sources-columns-key-missing');
      await expectAccessible(page, 'journey-sources-columns-key-missing');

      // A wrong key: the reason beside the button follows what is typed.
      await page.keyboard.type('not-a-key');
      await error.getByText('The linkage key is not valid', { exact: false }).waitFor();
      await page.setViewportSize(PHONE);
      await modal.getByRole('button', { name: 'Create Metadata Record' }).click();
      await focusedKeyInDialog();
      await dialogShot('journey-sources-columns-key-invalid-phone');
      await expectAccessible(page, 'journey-sources-columns-key-invalid-phone');
      await page.setViewportSize(DESKTOP);

      await modal.getByLabel(/^Linkage key\*?$/).fill(LINKAGE_KEY_TEXT);
      await error.waitFor({ state: 'detached' });
      await modal.getByRole('button', { name: 'Create Metadata Record' }).click();
      await page.getByTestId('created-records').getByRole('link').first().waitFor({ timeout: 120_000 });
    });

    it('private indexing: Save with a hashed column and no key says why beside Save and focuses the key', async () => {
      await page.evaluate(() => localStorage.removeItem('dc.linkageKey'));
      await page.goto(`${product.base}/#/indexdata?tab=private`);
      await page.getByLabel('CSV file').setInputFiles(path.join(DATASETS, 'csv/co2-annmean-gl.csv'));
      const modal = page.getByTestId('column-selection');
      await modal.getByTestId('total-rows').waitFor({ timeout: 60_000 });
      await tick(modal, 'Hash Year');
      await modal.getByRole('button', { name: 'Save' }).click();
      const error = modal.getByTestId('column-selection-error');
      await error.getByText('Give your linkage key to hash columns.').waitFor();
      await focusedKeyInDialog();
      await dialogShot('journey-sources-private-key-missing');
      await expectAccessible(page, 'journey-sources-private-key-missing');
      await page.setViewportSize(PHONE);
      await expectAccessible(page, 'journey-sources-private-key-missing-phone');
      await page.setViewportSize(DESKTOP);

      await page.keyboard.type(LINKAGE_KEY_TEXT);
      await error.waitFor({ state: 'detached' });
      await modal.getByRole('button', { name: 'Save' }).click();
      await modal.waitFor({ state: 'detached' });
      await page.getByTestId('private-summary').getByText('Hashed: Year.', { exact: false }).waitFor();
    });

    it('calls a collection of records a Project everywhere on its page: title, breadcrumb, buttons, dialogs', async () => {
      await page.goto(`${product.base}/#/groups`);
      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Projects', { exact: true }).waitFor();
      await page.waitForFunction(() => document.title.startsWith('Projects'));
      await page.getByText('No existing projects.').waitFor();
      await button('New Project').click();
      const dialog = page.getByRole('dialog', { name: 'New Project' });
      await dialog.getByLabel(/^Name\*?$/).fill('Coastal survey');
      await dialog.getByLabel('Description').fill('Tides and erosion, 2020 to 2026');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      // Spec section 8's text, kept word for word.
      await page.getByText('Record Group was created/edited successfully!').first().waitFor();
      const item = page.getByTestId('group-item').filter({ hasText: 'Coastal survey' });
      await item.getByRole('button').first().click();
      await item.getByRole('button', { name: 'Edit Project' }).waitFor();
      await saveScreenshot(page, 'journey-sources-projects');
      await expectAccessible(page, 'journey-sources-projects');
      await page.setViewportSize(PHONE);
      await expectAccessible(page, 'journey-sources-projects-phone');
      await page.setViewportSize(DESKTOP);
      expect(await page.getByRole('button', { name: /Group/ }).count()).toBe(0);

      await item.getByRole('button', { name: 'Edit Project' }).click();
      await page.getByRole('dialog', { name: 'Edit Project' }).getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('dialog', { name: 'Edit Project' }).waitFor({ state: 'detached' });
      await item.getByRole('button', { name: 'Delete Project' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByText('Are you sure you want to delete this project?').waitFor();
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('No existing projects.').waitFor();
    });
  },
);
