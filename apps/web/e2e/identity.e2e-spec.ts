import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeInfra, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { FakeIdentityApi, PASSWORD_RESET_TOKEN } from './fake-identity-api';
import { ensureWebBuild, startWebServer, type WebServer } from './web-server';

const TOKEN_KEY = 'dc.token';

// The identity screens (spec section 2: Login, Sign Up, Password Reset, Profile and its four tabs)
// against a fake identity API that keeps state like the real one.
describeInfra('identity screens in chromium', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(60_000);
  const api = new FakeIdentityApi();
  let server: WebServer;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    ensureWebBuild();
    server = await startWebServer(api.handle);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(() => api.reset());

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A fresh browser profile at `#hash`, signed in as `as` when given. */
  async function open(hash: string, options: { as?: string; width?: number } = {}): Promise<Page> {
    context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 } });
    const token = options.as ? api.tokenFor(options.as) : undefined;
    await context.addInitScript(
      ({ key, token }) => {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        if (token) localStorage.setItem(key, token);
      },
      { key: TOKEN_KEY, token },
    );
    const page = await context.newPage();
    await page.goto(`${server.url}#${hash}`);
    return page;
  }

  const hashOf = (page: Page) => new URL(page.url()).hash;
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  /** An input by its label; a required field's label ends in the (aria-hidden) "*" indicator. */
  const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`));
  const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
  const alert = (page: Page) => page.getByRole('alert');
  /** The error message shown under a field (Chakra's Field.ErrorText, linked by aria-errormessage). */
  async function errorOf(page: Page, label: string): Promise<string | null> {
    const id = await field(page, label).getAttribute('aria-errormessage');
    return id ? page.locator(`[id="${id}"]`).textContent() : null;
  }
  const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key) ?? sessionStorage.getItem(key), TOKEN_KEY);
  const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
  const main = (page: Page) => page.locator('#main-content');
  /** Ticks or clears a checkbox the way a keyboard user does (Chakra draws its box over the input). */
  async function toggle(box: ReturnType<Page['getByRole']>) {
    await box.focus();
    await box.press('Space');
  }

  describe('Login', () => {
    it('requires username and password and focuses the first missing one', async () => {
      const page = await open('/login');
      await button(page, 'Login').click();
      await page.getByText('Username is required.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      expect(await field(page, 'Username').evaluate((el) => el === document.activeElement)).toBe(true);
      expect(api.callsTo('POST', '/api-token-auth/')).toHaveLength(0);
      expect(await page.getByRole('checkbox', { name: 'Remember me' }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-login-validation');
    });

    it('shows only the first non-field error of a failed login', async () => {
      const page = await open('/login');
      await field(page, 'Username').fill('ada');
      await field(page, 'Password').fill('wrong');
      await field(page, 'Password').press('Enter');
      await alert(page).getByText('Unable to log in with provided credentials.').waitFor();
      expect(await page.getByText('A second message the form does not show.').count()).toBe(0);
      expect(api.callsTo('POST', '/api-token-auth/')[0].body).toEqual({ username: 'ada', password: 'wrong' });
      await saveScreenshot(page, 'identity-login-error');
    });

    it('shows the detail of a throttled login', async () => {
      const page = await open('/login');
      await field(page, 'Username').fill('throttled');
      await field(page, 'Password').fill('anything');
      await button(page, 'Login').click();
      await alert(page).getByText('Too many login attempts. Try again in 60 seconds.').waitFor();
    });

    it('logs in for this browser session only, or remembered with Remember me, and goes to the records', async () => {
      let page = await open('/login');
      await field(page, 'Username').fill('ada');
      await field(page, 'Password').fill('correct horse');
      await button(page, 'Login').click();
      await heading(page, 'Workspace').waitFor();
      expect(hashOf(page)).toBe('#/records');
      expect(await page.evaluate((key) => [localStorage.getItem(key), sessionStorage.getItem(key)], TOKEN_KEY)).toEqual([null, expect.stringMatching(/^token-ada-/)]);
      await context?.close();

      page = await open('/login');
      await field(page, 'Username').fill('ada');
      await field(page, 'Password').fill('correct horse');
      await toggle(page.getByRole('checkbox', { name: 'Remember me' }));
      await button(page, 'Login').click();
      await heading(page, 'Workspace').waitFor();
      expect(await page.evaluate((key) => [localStorage.getItem(key), sessionStorage.getItem(key)], TOKEN_KEY)).toEqual([expect.stringMatching(/^token-ada-/), null]);
    });

    it('links to Sign Up and Password Reset, and Cancel goes Home', async () => {
      const page = await open('/login');
      await page.getByRole('link', { name: 'Sign Up' }).click();
      await heading(page, 'Sign Up').waitFor();
      await page.goBack();
      await page.getByRole('link', { name: 'Password Reset' }).click();
      await heading(page, 'Password Reset').waitFor();
      await page.goBack();
      await button(page, 'Cancel').click();
      await page.getByPlaceholder('Search for data').waitFor();
      expect(hashOf(page)).toBe('#/');
    });

    it('tells whether an activation link worked', async () => {
      const page = await open('/login?activated=1');
      await page.getByRole('status').getByText('Your account is activated. Please log in.').waitFor();
      await saveScreenshot(page, 'identity-login-activated');
      await page.goto(`${server.url}#/login?activated=0`);
      await alert(page).getByText('This activation link is invalid or has expired.').waitFor();
      await saveScreenshot(page, 'identity-login-activation-failed');
    });
  });

  describe('Sign Up', () => {
    async function fillSignUp(page: Page, values: Record<string, string>) {
      for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
    }
    const valid = {
      Username: 'grace',
      Email: 'grace@example.org',
      'First name': 'Grace',
      'Last name': 'Hopper',
      Password: 'compilers rule',
      'Confirm password': 'compilers rule',
      Description: 'Navy research lab',
    };

    it('validates every field with the spec messages', async () => {
      const page = await open('/register');
      expect(await page.getByText('By signing up you agree to the terms of use and the privacy policy.').isVisible()).toBe(true);
      expect(await page.getByText('Say something about you or your organisation.').isVisible()).toBe(true);
      await button(page, 'Sign Up').click();
      await page.getByText('First Name is required').waitFor();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'Email')).toBe('Email is required.');
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      expect(await errorOf(page, 'Last name')).toBe('Last Name is required');
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      expect(await errorOf(page, 'Confirm password')).toBe('Please confirm the password.');
      expect(await errorOf(page, 'Description')).toBe('A description is required.');
      await saveScreenshot(page, 'identity-register-validation');

      await fillSignUp(page, { ...valid, Email: 'not-an-email', 'Confirm password': 'something else' });
      await button(page, 'Sign Up').click();
      await page.getByText('Enter a valid email address.').waitFor();
      expect(await errorOf(page, 'Confirm password')).toBe("Passwords don't match.");
      expect(await errorOf(page, 'First name')).toBeNull();
      expect(api.callsTo('POST', '/api/register/')).toHaveLength(0);
    });

    it('shows the server errors under their fields', async () => {
      const page = await open('/register');
      await fillSignUp(page, { ...valid, Username: 'ada', Email: 'ada@example.org' });
      await button(page, 'Sign Up').click();
      await page.getByText('A user with that username already exists.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('A user with that username already exists.');
      expect(await errorOf(page, 'Email')).toBe('A user with that email already exists.');
      await saveScreenshot(page, 'identity-register-server-errors');
    });

    it('registers and tells the user to follow the emailed link', async () => {
      const page = await open('/register');
      await saveScreenshot(page, 'identity-register');
      await fillSignUp(page, valid);
      await button(page, 'Sign Up').click();
      await page.getByText('A registration email was sent to').waitFor();
      expect(await page.getByRole('status').textContent()).toContain('A registration email was sent to grace@example.org. Follow the link in it to activate your account');
      expect(api.callsTo('POST', '/api/register/')[0].body).toEqual({
        username: 'grace',
        email: 'grace@example.org',
        first_name: 'Grace',
        last_name: 'Hopper',
        password: 'compilers rule',
        password_confirm: 'compilers rule',
        description: 'Navy research lab',
      });
      await saveScreenshot(page, 'identity-register-done');
    });
  });

  describe('Password Reset', () => {
    it('without a token: asks for the email and shows the answer', async () => {
      const page = await open('/passreset');
      await button(page, 'Reset Password').click();
      await page.getByText('Email is required.').waitFor();
      await field(page, 'Email').fill('broken@example.org');
      await button(page, 'Reset Password').click();
      await alert(page).getByText('Mail could not be sent.').waitFor();
      expect(await page.getByText('Second message.').count()).toBe(0);
      await field(page, 'Email').fill('ada@example.org');
      await button(page, 'Reset Password').click();
      await page.getByText('If an account uses this email, we sent it a link to reset the password.').waitFor();
      expect(api.callsTo('POST', '/api/password/confirm/').at(-1)?.body).toEqual({ email: 'ada@example.org' });
      await saveScreenshot(page, 'identity-passreset-request');
      await button(page, 'Cancel').click();
      await heading(page, 'Login').waitFor();
    });

    it('with a token and email: sets the new password, showing the first non-field error on failure', async () => {
      const page = await open(`/passreset?token=wrong-token&email=ada%40example.org`);
      await button(page, 'Update Password').waitFor();
      expect(await main(page).getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
      await button(page, 'Update Password').click();
      expect(await errorOf(page, 'New password')).toBe('New password is required.');
      await field(page, 'New password').fill('a brand new one');
      await field(page, 'Confirm new password').fill('a brand new one');
      await button(page, 'Update Password').click();
      await alert(page).getByText('The reset link is invalid or has expired.').waitFor();
      expect(await page.getByText('A second message the form does not show.').count()).toBe(0);
      await saveScreenshot(page, 'identity-passreset-invalid-token');

      await page.goto(`${server.url}#/passreset?token=${PASSWORD_RESET_TOKEN}&email=ada%40example.org`);
      await field(page, 'New password').fill('a brand new one');
      await field(page, 'Confirm new password').fill('a brand new one');
      await saveScreenshot(page, 'identity-passreset-form');
      await button(page, 'Update Password').click();
      await page.getByText('Your password was updated.').waitFor();
      expect(api.callsTo('POST', '/api/password/check/').at(-1)?.body).toEqual({
        email: 'ada@example.org',
        token: PASSWORD_RESET_TOKEN,
        password: 'a brand new one',
        password_confirm: 'a brand new one',
      });
      await saveScreenshot(page, 'identity-passreset-done');
      await main(page).getByRole('link', { name: 'Login' }).click();
      await field(page, 'Username').fill('ada');
      await field(page, 'Password').fill('a brand new one');
      await button(page, 'Login').click();
      await heading(page, 'Workspace').waitFor();
    });
  });

  describe('Profile', () => {
    it('asks visitors without a session to log in', async () => {
      const page = await open('/profile');
      await page.getByText('Please log in to see your profile.').waitFor();
      await main(page).getByRole('link', { name: 'Login' }).click();
      await heading(page, 'Login').waitFor();
    });

    it('shows the account with a logout button that goes Home', async () => {
      const page = await open('/profile', { as: 'ada' });
      await page.getByText('Signed in as ada').waitFor();
      for (const name of ['Profile', 'Organisation', 'Accounts', 'Credentials']) expect(await tab(page, name).isVisible()).toBe(true);
      expect(await field(page, 'First name').inputValue()).toBe('Ada');
      expect(await field(page, 'Last name').inputValue()).toBe('Lovelace');
      await saveScreenshot(page, 'identity-profile');
      await button(page, 'Logout').click();
      await page.getByRole('link', { name: 'Sign-in to index data and more!' }).waitFor();
      expect(hashOf(page)).toBe('#/');
      expect(await storedToken(page)).toBeNull();
    });

    it('saves the personal information and shows per-field server errors', async () => {
      const page = await open('/profile', { as: 'ada' });
      const section = page.getByRole('region', { name: 'Personal Information' });
      await field(page, 'First name').fill('');
      await section.getByRole('button', { name: 'Save' }).click();
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'First name').fill('Augusta Ada Byron King');
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Ensure this field has no more than 20 characters.').waitFor();
      expect(await errorOf(page, 'First name')).toBe('Ensure this field has no more than 20 characters.');
      await field(page, 'First name').fill('Augusta');
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your personal information was saved.').waitFor();
      expect(api.callsTo('PUT', '/api/change-profile-information/').at(-1)?.body).toEqual({ first_name: 'Augusta', last_name: 'Lovelace' });
      expect(api.user('ada').first_name).toBe('Augusta');
    });

    it('changes the password, then logs out because the old session is revoked', async () => {
      const page = await open('/profile', { as: 'ada' });
      const section = page.getByRole('region', { name: 'Change Password' });
      await section.getByRole('button', { name: 'Change Password' }).click();
      expect(await errorOf(page, 'Current password')).toBe('Current password is required.');
      await field(page, 'Current password').fill('not it');
      await field(page, 'New password').fill('even better horse');
      await field(page, 'Confirm new password').fill('even better hose');
      await section.getByRole('button', { name: 'Change Password' }).click();
      expect(await errorOf(page, 'Confirm new password')).toBe("Passwords don't match.");
      await field(page, 'Confirm new password').fill('even better horse');
      await section.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Wrong password.').waitFor();
      expect(await errorOf(page, 'Current password')).toBe('Wrong password.');
      await saveScreenshot(page, 'identity-profile-password-error');
      const oldToken = await storedToken(page);

      await field(page, 'Current password').fill('correct horse');
      await section.getByRole('button', { name: 'Change Password' }).click();
      await heading(page, 'Login').waitFor();
      expect(hashOf(page)).toBe('#/login');
      await page.getByText('Your password was changed. Please log in with your new password.').waitFor();
      expect(await storedToken(page)).toBeNull();
      expect(api.callsTo('PUT', '/api/change-password/').at(-1)?.body).toEqual({
        old_password: 'correct horse',
        new_password: 'even better horse',
        new_password_confirm: 'even better horse',
      });
      // The server no longer accepts the earlier token.
      const check = await fetch(`${server.url}api/account/user-account/`, { headers: { Authorization: `JWT ${oldToken}` } });
      expect(check.status).toBe(401);
      await saveScreenshot(page, 'identity-login-after-password-change');
    });

    it('keeps the chosen tab in the address and moves between tabs with the keyboard', async () => {
      const page = await open('/profile', { as: 'ada' });
      await tab(page, 'Profile').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: 'Organisation' }).waitFor();
      expect(hashOf(page)).toBe('#/profile?tab=organisation');
      await page.reload();
      await page.getByRole('region', { name: 'Organisation' }).waitFor();
      expect(await tab(page, 'Organisation').getAttribute('aria-selected')).toBe('true');
    });
  });

  describe('Organisation tab', () => {
    it('is editable with account.change_organisation and saves', async () => {
      const page = await open('/profile?tab=organisation', { as: 'ada' });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      expect(await page.getByText('3 members').isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-editable');
      await field(page, 'Name').fill('Ocean Lab North');
      await field(page, 'Description').fill('Sea surface and wave data.');
      await button(page, 'Save').click();
      await page.getByText('The organisation was saved.').waitFor();
      expect(api.callsTo('PUT', `/api/organisation/${api.organisation.id}/`).at(-1)?.body).toEqual({ name: 'Ocean Lab North', email: 'lab@example.org', description: 'Sea surface and wave data.' });
      // The Profile tab shows the new name too.
      await tab(page, 'Profile').click();
      await page.getByText('Ocean Lab North').waitFor();
    });

    it('shows per-field, non-field and detail errors', async () => {
      const page = await open('/profile?tab=organisation', { as: 'ada' });
      await field(page, 'Name').fill('');
      await field(page, 'Email').fill('nope');
      await button(page, 'Save').click();
      expect(await errorOf(page, 'Name')).toBe('Name is required.');
      expect(await errorOf(page, 'Email')).toBe('Enter a valid email address.');
      await field(page, 'Email').fill('lab@example.org');
      await field(page, 'Name').fill('Taken Org');
      await button(page, 'Save').click();
      await page.getByText('An organisation with that name already exists.').waitFor();
      expect(await errorOf(page, 'Name')).toBe('An organisation with that name already exists.');
      await field(page, 'Name').fill('Clash Org');
      await button(page, 'Save').click();
      await alert(page).getByText('The organisation was changed by someone else. Reload and try again.').waitFor();
      await saveScreenshot(page, 'identity-organisation-errors');
      await field(page, 'Name').fill('Locked Org');
      await button(page, 'Save').click();
      await alert(page).getByText('This organisation is locked.').waitFor();
    });

    it('is read-only without account.change_organisation', async () => {
      const page = await open('/profile?tab=organisation', { as: 'vic' });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      for (const label of ['Name', 'Email', 'Description']) expect(await field(page, label).getAttribute('readonly')).not.toBeNull();
      expect(await button(page, 'Save').count()).toBe(0);
      expect(await page.getByText('You can view your organisation but not edit it.', { exact: false }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-read-only');
    });
  });

  describe('Accounts tab', () => {
    const row = (page: Page, username: string) => page.getByTestId(`account-${username}`);
    const groupBox = (page: Page, group: string, username: string) => page.getByRole('checkbox', { name: `${group} for ${username}` });

    it('lists the accounts; own group boxes are disabled, others can be changed', async () => {
      const page = await open('/profile?tab=accounts', { as: 'ada' });
      await row(page, 'vic').waitFor();
      expect(await row(page, 'ada').getByText('You').isVisible()).toBe(true);
      for (const group of ['Access Admin', 'Data Admin', 'Data Viewer']) {
        expect(await groupBox(page, group, 'ada').isDisabled()).toBe(true);
        expect(await groupBox(page, group, 'vic').isEnabled()).toBe(true);
      }
      expect(await groupBox(page, 'Data Viewer', 'vic').isChecked()).toBe(true);
      expect(await groupBox(page, 'Data Admin', 'vic').isChecked()).toBe(false);
      await saveScreenshot(page, 'identity-accounts');

      await toggle(groupBox(page, 'Data Admin', 'vic'));
      await page.getByText('The groups of vic were updated.').waitFor();
      expect(api.callsTo('PATCH', `/api/account/${api.user('vic').id}/`).at(-1)?.body).toEqual({ groups: [2, 3] });
      expect(api.user('vic').groups).toEqual([2, 3]);
      expect(await groupBox(page, 'Data Admin', 'vic').isChecked()).toBe(true);

      // The server refuses: its change_group error is shown and the box stays as it was.
      await toggle(groupBox(page, 'Data Admin', 'dan'));
      await alert(page).getByText('Dan must stay a Data Admin while he owns records.').waitFor();
      expect(await groupBox(page, 'Data Admin', 'dan').isChecked()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-group-error');
    });

    it('creates a BASIC account with New Account, validating it first', async () => {
      const page = await open('/profile?tab=accounts', { as: 'ada' });
      await button(page, 'New Account').click();
      const dialog = page.getByRole('dialog', { name: 'New Account' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'Username').fill('vic');
      await field(page, 'Email').fill('new@example.org');
      await field(page, 'First name').fill('Nina');
      await field(page, 'Last name').fill('New');
      await field(page, 'Password').fill('welcome aboard');
      await field(page, 'Confirm password').fill('welcome aboard');
      await toggle(dialog.getByRole('checkbox', { name: 'Data Admin' }));
      await saveScreenshot(page, 'identity-accounts-new');
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.getByText('A user with that username already exists.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('A user with that username already exists.');
      await field(page, 'Username').fill('nina');
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, 'nina').waitFor();
      expect(api.callsTo('POST', '/api/account/').at(-1)?.body).toEqual({
        username: 'nina',
        email: 'new@example.org',
        first_name: 'Nina',
        last_name: 'New',
        password: 'welcome aboard',
        password_confirm: 'welcome aboard',
        client_type: 'BASIC',
        groups: [2, 3],
      });
      expect(await row(page, 'nina').getByText('BASIC').isVisible()).toBe(true);
    });

    it('edits an account and sets its password', async () => {
      const page = await open('/profile?tab=accounts', { as: 'ada' });
      await button(page, 'Edit vic').click();
      const dialog = page.getByRole('dialog', { name: 'Edit vic' });
      expect(await field(page, 'Username').getAttribute('readonly')).not.toBeNull();
      await field(page, 'Email').fill('taken@example.org');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('A user with that email already exists.').waitFor();
      await field(page, 'Email').fill('victoria@example.org');
      await field(page, 'First name').fill('Victoria');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, 'vic').getByText('victoria@example.org').waitFor();
      expect(api.callsTo('PUT', `/api/account/${api.user('vic').id}/`).at(-1)?.body).toEqual({ username: 'vic', email: 'victoria@example.org', first_name: 'Victoria', last_name: 'Viewer' });

      await button(page, 'Set password of vic').click();
      const passwordDialog = page.getByRole('dialog', { name: 'Set password of vic' });
      await field(page, 'New password').fill('fresh start');
      await field(page, 'Confirm new password').fill('fresh stark');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      expect(await errorOf(page, 'Confirm new password')).toBe("Passwords don't match.");
      await field(page, 'Confirm new password').fill('fresh start');
      await saveScreenshot(page, 'identity-accounts-set-password');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      await page.getByText('The password of vic was set.').waitFor();
      expect(api.callsTo('POST', `/api/account/${api.user('vic').id}/set_password/`).at(-1)?.body).toEqual({ new_password: 'fresh start', new_password_confirm: 'fresh start' });
      expect(api.user('vic').password).toBe('fresh start');
    });

    it('asks before deleting an account', async () => {
      const page = await open('/profile?tab=accounts', { as: 'ada' });
      await row(page, 'dan').waitFor();
      // Nobody deletes their own account or sets their own password here.
      expect(await button(page, 'Delete ada').count()).toBe(0);
      expect(await button(page, 'Set password of ada').count()).toBe(0);
      const danId = api.user('dan').id;
      await button(page, 'Delete dan').click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Are you sure you want to delete this account?').waitFor();
      await saveScreenshot(page, 'identity-accounts-delete-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(api.callsTo('DELETE', `/api/account/${danId}/`)).toHaveLength(0);
      await button(page, 'Delete dan').click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await row(page, 'dan').waitFor({ state: 'detached' });
      expect(api.callsTo('DELETE', `/api/account/${danId}/`)).toHaveLength(1);
      expect(api.users.map((u) => u.username)).toEqual(['ada', 'vic']);
    });

    it('without the account permissions: no New Account, no Delete, read-only forms and boxes', async () => {
      const page = await open('/profile?tab=accounts', { as: 'vic' });
      await row(page, 'ada').waitFor();
      expect(await button(page, 'New Account').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Set password of / }).count()).toBe(0);
      for (const username of ['ada', 'vic', 'dan']) expect(await groupBox(page, 'Data Viewer', username).isDisabled()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-read-only');
      await button(page, 'View ada').click();
      const dialog = page.getByRole('dialog', { name: 'ada' });
      expect(await field(page, 'Email').getAttribute('readonly')).not.toBeNull();
      expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  });

  describe('Credentials tab', () => {
    it('gets an API token and secret with the password and documents the token endpoint', async () => {
      const page = await open('/profile?tab=credentials', { as: 'ada' });
      await page.getByText('You have no API credentials yet.').waitFor();
      expect(await page.getByText(`${server.url}api-token-auth/`.replace(/\/$/, '/'), { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.locator('pre').first().textContent()).toContain('curl -X POST');
      await saveScreenshot(page, 'identity-credentials-empty');
      await button(page, 'Get API credentials').click();
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      await field(page, 'Password').fill('wrong');
      await button(page, 'Get API credentials').click();
      await page.getByText('Wrong password.').waitFor();
      expect(await errorOf(page, 'Password')).toBe('Wrong password.');
      await field(page, 'Password').fill('correct horse');
      await button(page, 'Get API credentials').click();
      await page.getByTestId('api-credentials').waitFor();
      const keys = api.user('ada').apiKeys;
      expect(await field(page, 'API token').inputValue()).toBe(keys?.api_token);
      expect(await field(page, 'API secret').inputValue()).toBe(keys?.api_secret);
      await saveScreenshot(page, 'identity-credentials');

      // The pair is read back from the server on the next visit, and works at the token endpoint.
      await page.reload();
      await page.getByTestId('api-credentials').waitFor();
      expect(await field(page, 'API secret').inputValue()).toBe(keys?.api_secret);
      const exchange = await fetch(`${server.url}api-token-auth/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: keys?.api_token, password: keys?.api_secret }),
      });
      expect(exchange.status).toBe(200);
    });
  });

  it('fits a narrow screen', async () => {
    let page = await open('/register', { width: 390 });
    await heading(page, 'Sign Up').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-register');
    await context?.close();
    page = await open('/profile?tab=accounts', { as: 'ada', width: 390 });
    await page.getByTestId('account-vic').waitFor();
    // The accounts table scrolls inside its own box; the page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-accounts');
  });
});
