import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { describeInfra, expectAccessible, isChromiumInstalled, saveScreenshot } from '@dc/testing';
import { browserTabs, seedStorageOnce } from './browser-tabs';
import { ensureWebBuild, sendJson, startWebServer, type WebServer } from './web-server';

// Tokens the fake API knows; any other token is answered 401 like an expired one.
const STANDARD_TOKEN = 'standard-token';
const BASIC_TOKEN = 'basic-token';
const TOKEN_KEY = 'dc.token';

function fakeUser(token: string) {
  const basic = token === BASIC_TOKEN;
  return {
    id: basic ? 2 : 1,
    username: basic ? 'bea.basic' : 'sam.standard',
    first_name: basic ? 'Bea' : 'Sam',
    last_name: 'Tester',
    email: basic ? 'bea@example.org' : 'sam@example.org',
    permissions: basic ? [] : ['account.add_userprofile', 'account.change_userprofile', 'account.change_organisation'],
    organisation: 1,
    organisation_details: { id: 1, name: 'Test Org', email: 'org@example.org', description: '' },
    client_type: basic ? 'BASIC' : 'STANDARD',
    groups: basic ? [3] : [1, 2, 3],
  };
}

describeInfra('web shell in chromium', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  // testTimeout in a jest project entry is not applied (it is a global option), so set it here.
  jest.setTimeout(60_000);
  let server: WebServer;
  const tabs = browserTabs();
  const accountCalls: Array<string | undefined> = [];

  beforeAll(async () => {
    ensureWebBuild();
    server = await startWebServer((request: IncomingMessage, body, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/api/account/user-account/' && request.method === 'GET') {
        accountCalls.push(request.headers.authorization);
        const token = /^JWT (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (token === STANDARD_TOKEN || token === BASIC_TOKEN) return sendJson(response, 200, fakeUser(token));
        return sendJson(response, 401, { detail: 'Signature has expired.' });
      }
      if (url.pathname === '/api-token-auth/' && request.method === 'POST') {
        const { username, password } = JSON.parse(body) as { username?: string; password?: string };
        if (username === 'sam.standard' && password === 'correct horse') return sendJson(response, 200, { token: STANDARD_TOKEN });
        return sendJson(response, 400, { non_field_errors: ['Unable to log in with provided credentials.'] });
      }
      return false;
    });
    await tabs.launch();
  });

  afterAll(async () => {
    await tabs.close();
    await server?.close();
  });

  /** A fresh browser profile; with a token it starts signed in ("remember me" storage). */
  async function open(hash: string, options: { token?: string; width?: number; scope?: 'own' | 'all' } = {}): Promise<Page> {
    const context = await tabs.newContext({ width: options.width ?? 1024, height: 768 });
    await seedStorageOnce(context, { local: { [TOKEN_KEY]: options.token, 'dc.recordsScope': options.scope } });
    const page = await context.newPage();
    await page.goto(`${server.url}#${hash}`);
    return page;
  }

  const hashOf = (page: Page) => new URL(page.url()).hash;
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const topSearch = (page: Page) => page.getByRole('search', { name: 'Search records' });
  const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const sidebarLink = (page: Page, name: string) => sidebar(page).getByRole('link', { name, exact: true });

  it('renders Home with the centred search box, the sign-in prompt and a footer', async () => {
    const page = await open('/');
    await page.getByPlaceholder('Search for data').waitFor();
    expect(await page.getByRole('link', { name: 'Sign-in to index data and more!' }).isVisible()).toBe(true);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
    expect(await page.getByRole('banner').getByText('Beta', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).isVisible()).toBe(true);
    await saveScreenshot(page, 'home-signed-out');
    await expectAccessible(page, 'Home');
  });

  it('submitting the Home search sets the query and goes to the records list', async () => {
    const page = await open('/');
    await page.getByPlaceholder('Search for data').fill('ocean temperature');
    await page.getByPlaceholder('Search for data').press('Enter');
    await heading(page, 'Workspace').waitFor();
    expect(hashOf(page)).toBe('#/records?query=ocean+temperature');
    expect(await page.getByTestId('records-search-summary').textContent()).toContain('ocean temperature');
    // The top bar search box shows the query of the URL.
    expect(await topSearch(page).getByRole('searchbox').inputValue()).toBe('ocean temperature');
  });

  it('the top bar search also goes to the records list', async () => {
    const page = await open('/jobs');
    await topSearch(page).getByRole('searchbox').fill('census');
    await topSearch(page).getByRole('searchbox').press('Enter');
    await heading(page, 'Workspace').waitFor();
    expect(hashOf(page)).toBe('#/records?query=census');
  });

  const signedInScreens: Array<[string, string]> = [
    ['/records', 'Workspace'],
    ['/records/3f0c2a9e-0000-4000-8000-000000000001', 'Record details'],
    ['/records/edit/3f0c2a9e-0000-4000-8000-000000000001', 'Edit record'],
    ['/indexdata', 'Add data'],
    ['/request', 'Requests'],
    ['/profile', 'Profile'],
    ['/access-policies', 'Access Policies'],
    ['/groups', 'Projects'],
    ['/jobs', 'Backend Jobs'],
  ];
  const guestScreens: Array<[string, string]> = [
    ['/login', 'Login'],
    ['/register', 'Sign Up'],
    ['/passreset', 'Password Reset'],
  ];

  // Twelve screens, each checked by axe-core: longer than the suite's 60 s on a busy machine.
  it('renders every screen of the route table', async () => {
    let page = await open('/', { token: STANDARD_TOKEN });
    for (const [route, title] of signedInScreens) {
      await page.goto(`${server.url}#${route}`);
      await heading(page, title).waitFor();
      expect(hashOf(page)).toBe(`#${route}`);
      await saveScreenshot(page, `screen${route.replace(/\//g, '-')}`);
      await expectAccessible(page, title);
    }
    await tabs.context?.close();
    page = await open('/');
    for (const [route, title] of guestScreens) {
      await page.goto(`${server.url}#${route}`);
      await heading(page, title).waitFor();
      expect(hashOf(page)).toBe(`#${route}`);
      await saveScreenshot(page, `screen${route.replace(/\//g, '-')}`);
      await expectAccessible(page, title);
    }
  }, 240_000);

  it('sends an unknown path to Home', async () => {
    const page = await open('/no/such/screen');
    await page.getByPlaceholder('Search for data').waitFor();
    expect(hashOf(page)).toBe('#/');
  });

  it('opens the sidebar by default on a wide screen', async () => {
    const page = await open('/records', { width: 1024 });
    await sidebar(page).waitFor();
    expect(await page.getByRole('button', { name: 'Toggle sidebar' }).getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Index Data', 'Explore', 'Requests', 'Governance', 'Backend Jobs', 'Start Guide']) {
      expect(await sidebar(page).getByRole('link', { name }).isVisible()).toBe(true);
    }
    expect(
      await sidebar(page)
        .getByRole('link', { name: /Start Guide/ })
        .getAttribute('target'),
    ).toBe('_blank');
    // The toggle closes it too.
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await sidebar(page).waitFor({ state: 'detached' });
  });

  it('closes the sidebar by default on a narrow screen and the toggle opens it', async () => {
    const page = await open('/records', { width: 500 });
    await heading(page, 'Workspace').waitFor();
    expect(await sidebar(page).count()).toBe(0);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await saveScreenshot(page, 'narrow-sidebar-closed');
    await toggle.click();
    await sidebarLink(page, 'Explore').waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await saveScreenshot(page, 'narrow-sidebar-open');
    // Picking a screen closes the overlay again.
    await sidebarLink(page, 'Backend Jobs').click();
    await heading(page, 'Backend Jobs').waitFor();
    await sidebar(page).waitFor({ state: 'detached' });
  });

  // The breakpoint itself: open by default at 768 px and wider, closed below.
  for (const [width, expanded] of [
    [768, true],
    [767, false],
  ] as const) {
    it(`${expanded ? 'opens' : 'closes'} the sidebar by default at ${width} px`, async () => {
      const page = await open('/records', { width });
      await heading(page, 'Workspace').waitFor();
      if (expanded) await sidebarLink(page, 'Explore').waitFor();
      expect(await page.evaluate(() => window.innerWidth)).toBe(width);
      expect(await page.getByRole('button', { name: 'Toggle sidebar' }).getAttribute('aria-expanded')).toBe(String(expanded));
      expect(await sidebar(page).count()).toBe(expanded ? 1 : 0);
      await saveScreenshot(page, `sidebar-at-${width}px`);
    });
  }

  it('hides Governance from BASIC clients', async () => {
    const page = await open('/records', { token: BASIC_TOKEN });
    await page.getByRole('link', { name: 'Profile' }).waitFor();
    await sidebarLink(page, 'Explore').waitFor();
    // Governance disappears once the BASIC account has loaded.
    await sidebarLink(page, 'Governance').waitFor({ state: 'detached' });
    expect(accountCalls).toContain(`JWT ${BASIC_TOKEN}`);
    expect(await sidebarLink(page, 'Backend Jobs').isVisible()).toBe(true);
    await saveScreenshot(page, 'records-basic-client');
  });

  it('shows Governance to STANDARD clients', async () => {
    // The profile screen shows the account, so the client type has arrived once it does.
    const page = await open('/profile', { token: STANDARD_TOKEN });
    await page.getByText('Signed in as sam.standard').waitFor();
    expect(await sidebarLink(page, 'Governance').isVisible()).toBe(true);
    await sidebarLink(page, 'Governance').click();
    await heading(page, 'Access Policies').waitFor();
    expect(hashOf(page)).toBe('#/access-policies');
  });

  it('hides the search bar and the side menu on the login page', async () => {
    const page = await open('/login', { width: 1024 });
    await heading(page, 'Login').waitFor();
    expect(await topSearch(page).count()).toBe(0);
    expect(await sidebar(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Toggle sidebar' }).count()).toBe(0);
    expect(await page.getByRole('banner').getByText('Beta', { exact: true }).isVisible()).toBe(true);
  });

  it('sends a signed-in user from login, register and password reset to the records list', async () => {
    const page = await open('/', { token: STANDARD_TOKEN });
    for (const route of ['/login', '/register', '/passreset']) {
      await page.goto(`${server.url}#${route}`);
      await heading(page, 'Workspace').waitFor();
      expect(hashOf(page)).toBe('#/records');
    }
  });

  it('sends visitors without a token from Add data and Requests to login', async () => {
    const page = await open('/indexdata');
    await heading(page, 'Login').waitFor();
    expect(hashOf(page)).toBe('#/login');
    await page.goto(`${server.url}#/request`);
    await heading(page, 'Login').waitFor();
    expect(hashOf(page)).toBe('#/login');
  });

  it('signed out: a Login link, no profile cog and no own/all toggle', async () => {
    const page = await open('/records');
    await heading(page, 'Workspace').waitFor();
    const banner = page.getByRole('banner');
    expect(await banner.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    expect(await banner.getByRole('link', { name: 'Profile' }).count()).toBe(0);
    expect(await banner.getByRole('radiogroup', { name: 'Records shown' }).count()).toBe(0);
    await banner.getByRole('link', { name: 'Login' }).click();
    await heading(page, 'Login').waitFor();
  });

  it('signed in: the profile cog and the own/all toggle, which sets the records scope', async () => {
    const page = await open('/records', { token: STANDARD_TOKEN });
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Profile' }).waitFor();
    expect(await banner.getByRole('link', { name: 'Login' }).count()).toBe(0);
    const scope = banner.getByRole('radiogroup', { name: 'Records shown' });
    expect(await scope.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
    await scope.getByText('Own', { exact: true }).click();
    await page.getByText('showing your own records').waitFor();
    expect(await scope.getByRole('radio', { name: 'Own' }).isChecked()).toBe(true);
    await saveScreenshot(page, 'records-signed-in');
    await banner.getByRole('link', { name: 'Profile' }).click();
    await heading(page, 'Profile').waitFor();
    expect(hashOf(page)).toBe('#/profile');
  });

  it('hides the section entries when signed out with the toggle left at "own"', async () => {
    const page = await open('/records', { scope: 'own' });
    await sidebarLink(page, 'Index Data').waitFor();
    expect(await sidebarLink(page, 'Explore').count()).toBe(0);
    expect(
      await sidebar(page)
        .getByRole('link', { name: /Start Guide/ })
        .count(),
    ).toBe(0);
  });

  it('treats a token the API rejects (401) as signed out', async () => {
    const page = await open('/records', { token: 'expired-token' });
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();
  });

  it('logs in through the login form and logs out to Home', async () => {
    const page = await open('/login');
    await page.getByLabel('Username').fill('sam.standard');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('alert').getByText('Unable to log in with provided credentials.').waitFor();
    await saveScreenshot(page, 'login-error');
    await expectAccessible(page, 'Login with an error');

    await page.getByLabel('Password').fill('correct horse');
    await page.getByText('Remember me').click();
    await page.getByRole('button', { name: 'Login' }).click();
    await heading(page, 'Workspace').waitFor();
    expect(hashOf(page)).toBe('#/records');
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBe(STANDARD_TOKEN);

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByText('Signed in as sam.standard').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Sign-in to index data and more!' }).waitFor();
    expect(hashOf(page)).toBe('#/');
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();
  });
});
