import { describeInfra, expectAccessible, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, errorOf, field, hashOf, heading, identityScreens, main, PASSWORD, storedToken, tab } from './identity-screens';
import { apiCall, subAccount } from './real-product';

// Profile and its Organisation tab against the real product in embedded mode: real accounts and
// real messages.
describeInfra('identity screens in chromium (real product): Profile and its Organisation tab', CHROMIUM, () => {
  jest.setTimeout(120_000);
  const screens = identityScreens('identity-profile');
  const { newFounder, open, callsTo, get } = screens;

  describe('Profile', () => {
    it('asks visitors without a session to log in', async () => {
      const page = await open('/profile');
      await page.getByText('Please log in to see your profile.').waitFor();
      await main(page).getByRole('link', { name: 'Login' }).click();
      await heading(page, 'Login').waitFor();
    });

    it('shows the account with a logout button that goes Home', async () => {
      const user = await newFounder('profile', { first_name: 'Ada', last_name: 'Lovelace' });
      const page = await open('/profile', { as: user });
      await page.getByText(`Signed in as ${user.username}`).waitFor();
      for (const name of ['Profile', 'Organisation', 'Accounts', 'Credentials']) expect(await tab(page, name).isVisible()).toBe(true);
      expect(await field(page, 'First name').inputValue()).toBe('Ada');
      expect(await field(page, 'Last name').inputValue()).toBe('Lovelace');
      // Dates read the same on every screen: YYYY-MM-DD (spec section 9), not the browser's locale.
      await page.getByText(/^Member since \d{4}-\d{2}-\d{2}$/).waitFor();
      await saveScreenshot(page, 'identity-profile');
      await expectAccessible(page, 'identity-profile');
      await button(page, 'Logout').click();
      await page.getByRole('link', { name: 'Sign-in to index data and more!' }).waitFor();
      expect(hashOf(page)).toBe('#/');
      expect(await storedToken(page)).toBeNull();
    });

    it('saves the personal information and shows per-field server errors', async () => {
      const user = await newFounder('names', { first_name: 'Ada', last_name: 'Lovelace' });
      const page = await open('/profile', { as: user });
      const section = page.getByRole('region', { name: 'Personal Information' });
      await field(page, 'First name').fill('');
      await section.getByRole('button', { name: 'Save' }).click();
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'First name').fill('A'.repeat(151));
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Ensure this field has no more than 150 characters.').waitFor();
      expect(await errorOf(page, 'First name')).toBe('Ensure this field has no more than 150 characters.');
      await field(page, 'First name').fill('Augusta');
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your personal information was saved.').waitFor();
      expect(callsTo('PUT', '/api/change-profile-information/').at(-1)).toMatchObject({ status: 200, body: { first_name: 'Augusta', last_name: 'Lovelace' } });
      expect(await get(user.token, '/api/account/user-account/')).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace' });
    });

    it('changes the password, then logs out because the old session is revoked', async () => {
      const user = await newFounder('changer');
      const page = await open('/profile', { as: user });
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
      await expectAccessible(page, 'identity-profile-password-error');

      await field(page, 'Current password').fill(PASSWORD);
      await section.getByRole('button', { name: 'Change Password' }).click();
      await heading(page, 'Login').waitFor();
      expect(hashOf(page)).toBe('#/login');
      await page.getByText('Your password was changed. Please log in again with your new password.').waitFor();
      expect(await storedToken(page)).toBeNull();
      expect(callsTo('PUT', '/api/change-password/').at(-1)).toMatchObject({
        status: 200,
        body: { old_password: PASSWORD, new_password: 'even better horse', new_password_confirm: 'even better horse' },
      });
      // The server no longer accepts the earlier token.
      expect((await apiCall(screens.product, user.token, 'GET', '/api/account/user-account/')).status).toBe(401);
      await saveScreenshot(page, 'identity-login-after-password-change');
      await expectAccessible(page, 'identity-login-after-password-change');
    });

    it('keeps the chosen tab in the address and moves between tabs with the keyboard', async () => {
      const user = await newFounder('tabs');
      const page = await open('/profile', { as: user });
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
      const admin = await newFounder('org', { first_name: 'Ocean', last_name: 'Lab' });
      await subAccount(screens.product, admin, `${admin.username}-viewer`, { groups: [3] });
      await subAccount(screens.product, admin, `${admin.username}-analyst`, { groups: [2, 3] });
      const page = await open('/profile?tab=organisation', { as: admin });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      expect(await page.getByText('3 members').isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-editable');
      await expectAccessible(page, 'identity-organisation-editable');
      await field(page, 'Name').fill('Ocean Lab North');
      await field(page, 'Email').fill('lab@example.org');
      await field(page, 'Description').fill('Sea surface and wave data.');
      await button(page, 'Save').click();
      await page.getByText('The organisation was saved.').waitFor();
      expect(callsTo('PUT', `/api/organisation/${admin.organisation}/`).at(-1)).toMatchObject({
        status: 200,
        body: { name: 'Ocean Lab North', email: 'lab@example.org', description: 'Sea surface and wave data.' },
      });
      expect(await get(admin.token, `/api/organisation/${admin.organisation}/`)).toMatchObject({
        name: 'Ocean Lab North',
        email: 'lab@example.org',
        description: 'Sea surface and wave data.',
      });
      // The Profile tab shows the new name too.
      await tab(page, 'Profile').click();
      await page.getByText('Ocean Lab North').waitFor();
    });

    it("shows per-field errors, and a refusal's detail", async () => {
      const admin = await newFounder('orgerr');
      const viewer = await subAccount(screens.product, admin, `${admin.username}-viewer`, { groups: [3] });
      const page = await open('/profile?tab=organisation', { as: admin });
      await field(page, 'Name').fill('');
      await field(page, 'Email').fill('nope');
      await button(page, 'Save').click();
      expect(await errorOf(page, 'Name')).toBe('Name is required.');
      expect(await errorOf(page, 'Email')).toBe('Enter a valid email address.');
      await field(page, 'Email').fill('lab@example.org');
      await field(page, 'Name').fill('N'.repeat(201));
      await button(page, 'Save').click();
      await page.getByText('Ensure this field has no more than 200 characters.').waitFor();
      expect(await errorOf(page, 'Name')).toBe('Ensure this field has no more than 200 characters.');
      await saveScreenshot(page, 'identity-organisation-errors');
      await expectAccessible(page, 'identity-organisation-errors');

      // What the product answers a caller without account.change_organisation, as if the admin had lost it.
      const refusal = await apiCall(screens.product, viewer.token, 'PUT', `/api/organisation/${admin.organisation}/`, { name: 'Mine now' });
      expect(refusal.status).toBe(403);
      const refusalBody = await refusal.json();
      await page.route(`**/api/organisation/${admin.organisation}/`, (route) => route.fulfill({ status: 403, json: refusalBody }), { times: 1 });
      await field(page, 'Name').fill('Still ours');
      await button(page, 'Save').click();
      await alert(page).getByText('You do not have permission to perform this action.').waitFor();
    });

    it('is read-only without account.change_organisation', async () => {
      const admin = await newFounder('orgro', { first_name: 'Ocean', last_name: 'Lab' });
      const viewer = await subAccount(screens.product, admin, `${admin.username}-viewer`, { groups: [3] });
      const page = await open('/profile?tab=organisation', { as: viewer });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      for (const label of ['Name', 'Email', 'Description']) expect(await field(page, label).getAttribute('readonly')).not.toBeNull();
      expect(await button(page, 'Save').count()).toBe(0);
      expect(await page.getByText('You can view your organisation but not edit it.', { exact: false }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-read-only');
      await expectAccessible(page, 'identity-organisation-read-only');
    });
  });
});
