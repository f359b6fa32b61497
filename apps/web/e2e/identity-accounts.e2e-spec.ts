import type { Page } from 'playwright-core';
import { describeInfra, expectAccessible, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, errorOf, field, heading, identityScreens, PASSWORD, toggle } from './identity-screens';
import { apiCall, apiLogin, subAccount } from './real-product';

// The Profile's Accounts and Credentials tabs, and the screens on a narrow screen, against the real
// product in embedded mode: real accounts and real messages.
describeInfra('identity screens in chromium (real product): the Accounts and Credentials tabs, narrow screens', CHROMIUM, () => {
  jest.setTimeout(120_000);
  const screens = identityScreens('identity-accounts');
  const { newFounder, open, callsTo, get } = screens;

  describe('Accounts tab', () => {
    const row = (page: Page, username: string) => page.getByTestId(`account-${username}`);
    const groupBox = (page: Page, group: string, username: string) => page.getByRole('checkbox', { name: `${group} for ${username}`, exact: true });
    /** A founder with a BASIC Data Viewer and a BASIC Data Admin. */
    async function team(prefix: string) {
      const admin = await newFounder(prefix);
      const viewer = await subAccount(screens.product, admin, `${admin.username}-vic`, { groups: [3], first_name: 'Vic', last_name: 'Viewer' });
      const dataAdmin = await subAccount(screens.product, admin, `${admin.username}-dan`, { groups: [2, 3], first_name: 'Dan', last_name: 'Data' });
      return { admin, viewer, dataAdmin };
    }

    it('lists the accounts; own group boxes are disabled, others can be changed', async () => {
      const { admin, viewer, dataAdmin } = await team('acc');
      const page = await open('/profile?tab=accounts', { as: admin });
      await row(page, viewer.username).waitFor();
      expect(await row(page, admin.username).getByText('You').isVisible()).toBe(true);
      for (const group of ['Access Admin', 'Data Admin', 'Data Viewer']) {
        expect(await groupBox(page, group, admin.username).isDisabled()).toBe(true);
        expect(await groupBox(page, group, viewer.username).isEnabled()).toBe(true);
      }
      expect(await groupBox(page, 'Data Viewer', viewer.username).isChecked()).toBe(true);
      expect(await groupBox(page, 'Data Admin', viewer.username).isChecked()).toBe(false);
      await saveScreenshot(page, 'identity-accounts');
      await expectAccessible(page, 'identity-accounts');

      await toggle(groupBox(page, 'Data Admin', viewer.username));
      await page.getByText(`The groups of ${viewer.username} were updated.`).waitFor();
      expect(callsTo('PATCH', `/api/account/${viewer.id}/`).at(-1)).toMatchObject({ status: 200, body: { groups: [2, 3] } });
      expect(await get(admin.token, `/api/account/${viewer.id}/`)).toMatchObject({ groups: [2, 3] });
      expect(await groupBox(page, 'Data Admin', viewer.username).isChecked()).toBe(true);

      // Another admin deleted the account meanwhile: the server's refusal is shown and the box stays as it was.
      expect((await apiCall(screens.product, admin.token, 'DELETE', `/api/account/${dataAdmin.id}/`)).status).toBe(204);
      await toggle(groupBox(page, 'Data Admin', dataAdmin.username));
      await alert(page).getByText('Not found.').waitFor();
      expect(await groupBox(page, 'Data Admin', dataAdmin.username).isChecked()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-group-error');
      await expectAccessible(page, 'identity-accounts-group-error');
    });

    it('creates a BASIC account with New Account, validating it first', async () => {
      const { admin, viewer } = await team('new');
      const page = await open('/profile?tab=accounts', { as: admin });
      await button(page, 'New Account').click();
      const dialog = page.getByRole('dialog', { name: 'New Account' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'Username').fill(viewer.username);
      await field(page, 'Email').fill(`${admin.username}-nina@example.org`);
      await field(page, 'First name').fill('Nina');
      await field(page, 'Last name').fill('New');
      await field(page, 'Password').fill('welcome aboard');
      await field(page, 'Confirm password').fill('welcome aboard');
      await toggle(dialog.getByRole('checkbox', { name: 'Data Admin' }));
      await saveScreenshot(page, 'identity-accounts-new');
      await expectAccessible(page, 'identity-accounts-new');
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.getByText('A user with that username already exists.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('A user with that username already exists.');
      const nina = `${admin.username}-nina`;
      await field(page, 'Username').fill(nina);
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, nina).waitFor();
      expect(callsTo('POST', '/api/account/').at(-1)).toMatchObject({
        status: 201,
        body: {
          username: nina,
          email: `${nina}@example.org`,
          first_name: 'Nina',
          last_name: 'New',
          password: 'welcome aboard',
          password_confirm: 'welcome aboard',
          client_type: 'BASIC',
          groups: [2, 3],
        },
      });
      // The plan is a select for whoever may change accounts (issue 25).
      expect(
        await row(page, nina)
          .getByRole('combobox', { name: `Plan of ${nina}` })
          .inputValue(),
      ).toBe('BASIC');
      expect(await apiLogin(screens.product, nina, 'welcome aboard')).toEqual(expect.any(String));
    });

    it('edits an account and sets its password', async () => {
      const { admin, viewer, dataAdmin } = await team('edit');
      const page = await open('/profile?tab=accounts', { as: admin });
      await button(page, `Edit ${viewer.username}`).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${viewer.username}` });
      expect(await field(page, 'Username').getAttribute('readonly')).not.toBeNull();
      await field(page, 'Email').fill(dataAdmin.email);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('A user with that email already exists.').waitFor();
      await field(page, 'Email').fill(`${admin.username}-victoria@example.org`);
      await field(page, 'First name').fill('Victoria');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, viewer.username).getByText(`${admin.username}-victoria@example.org`).waitFor();
      expect(callsTo('PUT', `/api/account/${viewer.id}/`).at(-1)).toMatchObject({
        status: 200,
        body: { username: viewer.username, email: `${admin.username}-victoria@example.org`, first_name: 'Victoria', last_name: 'Viewer' },
      });

      await button(page, `Set password of ${viewer.username}`).click();
      const passwordDialog = page.getByRole('dialog', { name: `Set password of ${viewer.username}` });
      await field(page, 'New password').fill('fresh start');
      await field(page, 'Confirm new password').fill('fresh stark');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      expect(await errorOf(page, 'Confirm new password')).toBe("Passwords don't match.");
      await field(page, 'Confirm new password').fill('fresh start');
      await saveScreenshot(page, 'identity-accounts-set-password');
      await expectAccessible(page, 'identity-accounts-set-password');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      await page.getByText(`The password of ${viewer.username} was set.`).waitFor();
      expect(callsTo('POST', `/api/account/${viewer.id}/set_password/`).at(-1)).toMatchObject({
        status: 200,
        body: { new_password: 'fresh start', new_password_confirm: 'fresh start' },
      });
      expect(await apiLogin(screens.product, viewer.username, 'fresh start')).toEqual(expect.any(String));
    });

    it('asks before deleting an account', async () => {
      const { admin, viewer, dataAdmin } = await team('del');
      const page = await open('/profile?tab=accounts', { as: admin });
      await row(page, dataAdmin.username).waitFor();
      // Nobody deletes their own account or sets their own password here.
      expect(await button(page, `Delete ${admin.username}`).count()).toBe(0);
      expect(await button(page, `Set password of ${admin.username}`).count()).toBe(0);
      await button(page, `Delete ${dataAdmin.username}`).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Are you sure you want to delete this account?').waitFor();
      await saveScreenshot(page, 'identity-accounts-delete-confirm');
      await expectAccessible(page, 'identity-accounts-delete-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(callsTo('DELETE', `/api/account/${dataAdmin.id}/`)).toHaveLength(0);
      await button(page, `Delete ${dataAdmin.username}`).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await row(page, dataAdmin.username).waitFor({ state: 'detached' });
      expect(callsTo('DELETE', `/api/account/${dataAdmin.id}/`)).toEqual([expect.objectContaining({ status: 204 })]);
      const left = await get<{ results: Array<{ username: string }> }>(admin.token, '/api/account/');
      expect(left.results.map((account) => account.username).sort()).toEqual([admin.username, viewer.username].sort());
    });

    it('without the account permissions: no New Account, no Delete, read-only forms and boxes', async () => {
      const { admin, viewer, dataAdmin } = await team('ro');
      const page = await open('/profile?tab=accounts', { as: viewer });
      await row(page, admin.username).waitFor();
      expect(await button(page, 'New Account').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Set password of / }).count()).toBe(0);
      for (const username of [admin.username, viewer.username, dataAdmin.username])
        expect(await groupBox(page, 'Data Viewer', username).isDisabled()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-read-only');
      await expectAccessible(page, 'identity-accounts-read-only');
      await button(page, `View ${admin.username}`).click();
      const dialog = page.getByRole('dialog', { name: admin.username });
      expect(await field(page, 'Email').getAttribute('readonly')).not.toBeNull();
      expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  });

  describe('Credentials tab', () => {
    it('gets an API token and secret with the password and documents the token endpoint', async () => {
      const user = await newFounder('creds');
      const page = await open('/profile?tab=credentials', { as: user });
      await page.getByText('You have no API credentials yet.').waitFor();
      expect(await page.getByText(`${screens.product.base}/api-token-auth/`, { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.locator('pre').first().textContent()).toContain('curl -X POST');
      await saveScreenshot(page, 'identity-credentials-empty');
      await expectAccessible(page, 'identity-credentials-empty');
      await button(page, 'Get API credentials').click();
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      await field(page, 'Password').fill('wrong');
      await button(page, 'Get API credentials').click();
      await page.getByText('Wrong password.').waitFor();
      expect(await errorOf(page, 'Password')).toBe('Wrong password.');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Get API credentials').click();
      await page.getByTestId('api-credentials').waitFor();
      await page.getByText('Copy the API secret now: it is shown only once.').waitFor();
      const keys = await get<{ api_token: string; api_secret: null; created: string }>(user.token, '/api/user-api-keys/');
      expect(await field(page, 'API token').inputValue()).toBe(keys.api_token);
      const secret = await field(page, 'API secret').inputValue();
      expect(secret).toMatch(/^[\w-]{43}$/);
      expect(keys.api_secret).toBeNull();
      await saveScreenshot(page, 'identity-credentials');
      await expectAccessible(page, 'identity-credentials');

      // The secret was shown once: the next visit says that a pair exists and when, and the pair works at the token endpoint.
      await page.reload();
      await page.getByTestId('api-secret-created').waitFor();
      expect(await page.getByTestId('api-secret-created').textContent()).toContain(keys.created.slice(0, 10));
      expect(await page.getByLabel('API secret').count()).toBe(0);
      expect(await field(page, 'API token').inputValue()).toBe(keys.api_token);
      await saveScreenshot(page, 'identity-credentials-later');
      await expectAccessible(page, 'identity-credentials-later');
      expect(await apiLogin(screens.product, keys.api_token, secret)).toEqual(expect.any(String));
    });
  });

  it('fits a narrow screen', async () => {
    const admin = await newFounder('narrow');
    const viewer = await subAccount(screens.product, admin, `${admin.username}-vic`, { groups: [3] });
    let page = await open('/register', { width: 390 });
    await heading(page, 'Sign Up').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-register');
    await expectAccessible(page, 'identity-narrow-register');
    await screens.context?.close();
    page = await open('/profile?tab=accounts', { as: admin, width: 390 });
    await page.getByTestId(`account-${viewer.username}`).waitFor();
    // The accounts table scrolls inside its own box; the page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-accounts');
    await expectAccessible(page, 'identity-narrow-accounts');
  });
});
