import type { Browser, Page } from 'playwright-core';
import { describeInfra, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { linkIn, mailFiles, newestMail, startRealProduct, type RealProduct } from './real-product';

/**
 * The identity screens against the real product in embedded mode (one process, embedded
 * PostgreSQL, mail written as .eml files under DATA_DIR/mail): sign up, activate through the
 * emailed link, log in, edit the profile, change the password (forced logout), reset it through
 * the emailed link, log in again and create a sub-account.
 */
describeInfra('identity end to end in embedded mode', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(180_000);
  let product: RealProduct;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    product = await startRealProduct('identity-flow');
    base = product.base;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const user = { username: 'grace', email: 'grace@example.org', password: 'compilers rule 1952' };
  const newPassword = 'cobol forever 1959';
  const resetPassword = 'nanoseconds 30cm';

  const hashOf = () => new URL(page.url()).hash;
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const field = (label: string) => page.getByLabel(new RegExp(`^${label}\\*?$`));
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const main = () => page.locator('#main-content');

  async function login(username: string, password: string) {
    await page.goto(`${base}/#/login`);
    await field('Username').fill(username);
    await field('Password').fill(password);
    await button('Login').click();
    await heading('Workspace').waitFor();
    expect(hashOf()).toBe('#/records');
  }

  it('signs up and activates the account through the emailed link', async () => {
    const before = mailFiles(product);
    await page.goto(`${base}/#/register`);
    await field('Username').fill(user.username);
    await field('Email').fill(user.email);
    await field('First name').fill('Grace');
    await field('Last name').fill('Hopper');
    await field('Password').fill(user.password);
    await field('Confirm password').fill(user.password);
    await field('Description').fill('Compilers and navy research');
    await button('Sign Up').click();
    await page.getByText(`A registration email was sent to ${user.email}`, { exact: false }).waitFor();
    await saveScreenshot(page, 'identity-flow-registered');
    await expectAccessible(page, 'identity-flow-registered');

    // Not active yet: the login is refused.
    await page.goto(`${base}/#/login`);
    await field('Username').fill(user.username);
    await field('Password').fill(user.password);
    await button('Login').click();
    // The same answer as a wrong password, so nobody learns which accounts exist but are inactive.
    await page.getByRole('alert').getByText('Unable to log in with provided credentials.', { exact: true }).waitFor();
    expect(hashOf()).toBe('#/login');

    const activation = await newestMail(product, user.email, /activate/i, before);
    const link = linkIn(activation);
    expect(link.startsWith(base)).toBe(true);
    await page.goto(link);
    await page.getByText('Your account is activated. Please log in.').waitFor();
    expect(hashOf()).toBe('#/login?activated=1');
    await saveScreenshot(page, 'identity-flow-activated');
    await expectAccessible(page, 'identity-flow-activated');

    // The link works once.
    await page.goto(link);
    await page.getByText('This activation link is invalid or has expired.').waitFor();
  });

  it('logs in and edits the profile', async () => {
    await login(user.username, user.password);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    const section = page.getByRole('region', { name: 'Personal Information' });
    expect(await field('First name').inputValue()).toBe('Grace');
    await field('First name').fill('Grace Brewster');
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your personal information was saved.').waitFor();
    await page.reload();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    expect(await field('First name').inputValue()).toBe('Grace Brewster');
    await saveScreenshot(page, 'identity-flow-profile');
    await expectAccessible(page, 'identity-flow-profile');
  });

  it('changes the password, which logs the user out', async () => {
    const section = page.getByRole('region', { name: 'Change Password' });
    await field('Current password').fill('not my password');
    await field('New password').fill(newPassword);
    await field('Confirm new password').fill(newPassword);
    await section.getByRole('button', { name: 'Change Password' }).click();
    // The server's per-field error for a wrong current password.
    await page.waitForFunction(() => document.querySelector('input[name="old_password"]')?.getAttribute('aria-invalid') === 'true');

    const oldToken = await page.evaluate(() => localStorage.getItem('dc.token') ?? sessionStorage.getItem('dc.token'));
    await field('Current password').fill(user.password);
    await section.getByRole('button', { name: 'Change Password' }).click();
    await heading('Login').waitFor();
    await page.getByText('Your password was changed. Please log in again with your new password.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('dc.token') ?? sessionStorage.getItem('dc.token'))).toBeNull();
    const stale = await fetch(`${base}/api/account/user-account/`, { headers: { Authorization: `JWT ${oldToken}` } });
    expect(stale.status).toBe(401);
    await login(user.username, newPassword);
  });

  it('resets the password through the emailed link and logs in with the new one', async () => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await button('Logout').click();
    await page.getByRole('link', { name: 'Sign-in to index data and more!' }).waitFor();

    const before = mailFiles(product);
    await page.goto(`${base}/#/login`);
    await main().getByRole('link', { name: 'Password Reset' }).click();
    await field('Email').fill(user.email);
    await button('Reset Password').click();
    await page.getByRole('status').waitFor();
    await saveScreenshot(page, 'identity-flow-reset-requested');
    await expectAccessible(page, 'identity-flow-reset-requested');

    const reset = await newestMail(product, user.email, /password/i, before);
    const link = linkIn(reset);
    expect(link.startsWith(`${base}/#/passreset?`)).toBe(true);
    await page.goto(link);
    await field('New password').fill(resetPassword);
    await field('Confirm new password').fill(resetPassword);
    await button('Update Password').click();
    await page.getByText('You can now log in with the new password.').waitFor();
    await saveScreenshot(page, 'identity-flow-reset-done');
    await expectAccessible(page, 'identity-flow-reset-done');

    await login(user.username, resetPassword);
  });

  it('creates a BASIC sub-account in the Accounts tab, which can log in', async () => {
    await page.goto(`${base}/#/profile?tab=accounts`);
    await page.getByTestId(`account-${user.username}`).waitFor();
    // Own group membership cannot be changed.
    expect(await page.getByRole('checkbox', { name: `Access Admin for ${user.username}` }).isDisabled()).toBe(true);

    await button('New Account').click();
    const dialog = page.getByRole('dialog', { name: 'New Account' });
    await field('Username').fill('kathleen');
    await field('Email').fill('kathleen@example.org');
    await field('First name').fill('Kathleen');
    await field('Last name').fill('Booth');
    await field('Password').fill('assembly language');
    await field('Confirm password').fill('assembly language');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('account-kathleen');
    await row.waitFor();
    // The plan is a select for whoever may change accounts (issue 25).
    expect(await row.getByRole('combobox', { name: 'Plan of kathleen' }).inputValue()).toBe('BASIC');
    expect(await page.getByRole('checkbox', { name: 'Data Viewer for kathleen' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Data Viewer for kathleen' }).isEnabled()).toBe(true);
    await saveScreenshot(page, 'identity-flow-accounts');
    await expectAccessible(page, 'identity-flow-accounts');

    const token = await fetch(`${base}/api-token-auth/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'kathleen', password: 'assembly language' }),
    });
    expect(token.status).toBe(200);
  });

  it('hands out API credentials in the Credentials tab that work at the token endpoint', async () => {
    await page.goto(`${base}/#/profile?tab=credentials`);
    await page.getByText('You have no API credentials yet.').waitFor();
    await field('Password').fill(resetPassword);
    await button('Get API credentials').click();
    await page.getByTestId('api-credentials').waitFor();
    const apiToken = await field('API token').inputValue();
    const apiSecret = await field('API secret').inputValue();
    expect(apiToken).not.toBe('');
    expect(apiSecret).not.toBe('');
    await saveScreenshot(page, 'identity-flow-credentials');
    await expectAccessible(page, 'identity-flow-credentials');
    const exchange = await fetch(`${base}/api-token-auth/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: apiToken, password: apiSecret }),
    });
    expect(exchange.status).toBe(200);
    expect(await exchange.json()).toEqual({ token: expect.any(String) });
  });
});
