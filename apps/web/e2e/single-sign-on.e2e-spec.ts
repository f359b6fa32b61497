import type { Browser, Page } from 'playwright-core';
import { describeInfra, expectAccessible, launchChromium, OidcTestProvider, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, field, hashOf, heading, PASSWORD, storedToken, tab, TOKEN_KEY } from './identity-screens';
import { apiCall, founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

// Single sign-on through the login screen against a real OpenID provider (oidc-provider on a
// loopback port, its own dev login form) and the real product in embedded mode. The product may
// reach the loopback provider because ALLOWED_PRIVATE_ENDPOINTS lists 127.0.0.1.
describeInfra('single sign-on in chromium (real product, real oidc-provider)', CHROMIUM, () => {
  jest.setTimeout(120_000);
  let product: RealProduct;
  let provider: OidcTestProvider;
  let browser: Browser;
  let admin: SignedIn;
  const pages: Page[] = [];

  async function open(hash: string, as?: SignedIn): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (as) await context.addInitScript(({ key, token }) => sessionStorage.setItem(key, token), { key: TOKEN_KEY, token: as.token });
    const page = await context.newPage();
    pages.push(page);
    await page.goto(`${product.base}/#${hash}`);
    return page;
  }

  /** At the provider's dev login form: any password will do. */
  async function signInAtProvider(page: Page, login: string) {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  beforeAll(async () => {
    product = await startRealProduct('sso', { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1' });
    provider = await OidcTestProvider.start({
      clients: [{ client_id: 'catalogue', client_secret: 'catalogue-secret', redirect_uris: [`${product.base}/api/sso/callback/`] }],
      accounts: {
        grace: { email: 'grace@navy.example', email_verified: true, given_name: 'Grace', family_name: 'Hopper' },
        mallory: { email: 'mallory@elsewhere.example', email_verified: true },
      },
    });
    browser = await launchChromium();
    admin = await founder(product, 'ssoadmin', PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await provider?.stop();
    await product?.stop();
  }, 60_000);
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  it('lets the Data Admin turn single sign-on on in the Organisation tab; the secret is not shown again', async () => {
    const page = await open('/profile?tab=organisation', admin);
    const section = page.getByRole('region', { name: 'Single sign-on' });
    await section.getByText('Single sign-on is off: only passwords are used.').waitFor();
    expect(await section.getByRole('textbox', { name: 'Redirect URI to register at your provider' }).inputValue()).toBe(`${product.base}/api/sso/callback/`);
    await expectAccessible(page, 'single-sign-on-settings-empty');

    await section.getByRole('button', { name: 'Turn on single sign-on' }).click();
    await section.getByText('The client secret is required.').waitFor();

    await field(page, 'Name shown on the login screen').fill('Navy Keycloak');
    await field(page, 'Issuer URL').fill(provider.issuer);
    await field(page, 'Client ID').fill('catalogue');
    await field(page, 'Client secret').fill('catalogue-secret');
    await field(page, 'Allowed email domains').fill('navy.example');
    await page.getByLabel('Plan of accounts made at first sign-in').selectOption('STANDARD');
    await section.getByRole('button', { name: 'Turn on single sign-on' }).click();
    await page.getByText('The single sign-on settings were saved.').waitFor();
    await section.getByText('A secret is stored (it is never shown). Leave blank to keep it.').waitFor();
    expect(await field(page, 'Client secret').inputValue()).toBe('');
    expect(await field(page, 'Issuer URL').inputValue()).toBe(provider.issuer);
    await saveScreenshot(page, 'single-sign-on-settings');
    await expectAccessible(page, 'single-sign-on-settings');

    // Not a Data Admin: nothing of it shows.
    const created = await apiCall(product, admin.token, 'POST', '/api/account/', {
      username: 'viewer-sso',
      email: 'viewer-sso@example.org',
      first_name: 'View',
      last_name: 'Er',
      password: PASSWORD,
      groups: [3],
    });
    expect(created.status).toBe(201);
    const token = (
      (await (await apiCall(product, null, 'POST', '/api-token-auth/', { username: 'viewer-sso', password: PASSWORD })).json()) as { token: string }
    ).token;
    const viewerPage = await open('/profile?tab=organisation', { ...admin, token });
    await viewerPage.getByRole('region', { name: 'Organisation' }).waitFor();
    await viewerPage.getByLabel('Name').first().waitFor();
    expect(await viewerPage.getByRole('region', { name: 'Single sign-on' }).count()).toBe(0);
  });

  it('signs a new person in with the provider from the login screen, making their account in the organisation', async () => {
    const page = await open('/login');
    const signIn = page.getByRole('link', { name: 'Sign in with Navy Keycloak' });
    await signIn.waitFor();
    await expectAccessible(page, 'login-with-single-sign-on');
    await signIn.click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await signInAtProvider(page, 'grace');
    await heading(page, 'Workspace').waitFor();
    expect(hashOf(page)).toBe('#/records');
    const token = await storedToken(page);
    expect(token).toEqual(expect.any(String));
    const me = (await (await apiCall(product, token, 'GET', '/api/account/user-account/')).json()) as Record<string, unknown>;
    expect(me).toEqual(
      expect.objectContaining({ email: 'grace@navy.example', first_name: 'Grace', organisation: admin.organisation, client_type: 'STANDARD' }),
    );
    await saveScreenshot(page, 'single-sign-on-signed-in');
  });

  it('shows on the login screen why a person of another email domain is refused', async () => {
    const page = await open('/login');
    await page.getByRole('link', { name: 'Sign in with Navy Keycloak' }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await signInAtProvider(page, 'mallory');
    await alert(page).getByText('Your email address is not in a domain this organisation allows for single sign-on.').waitFor();
    expect(hashOf(page)).toMatch(/^#\/login\/sso\?result=/);
    expect(await storedToken(page)).toBeNull();
    await saveScreenshot(page, 'single-sign-on-refused');
    await expectAccessible(page, 'single-sign-on-refused');
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await button(page, 'Login').waitFor();
    expect(await tab(page, 'Organisation').count()).toBe(0);
  });
});
