import type { Page } from 'playwright-core';
import { describeInfra, eventually, expectAccessible, saveScreenshot } from '@dc/testing';
import { button, CHROMIUM, field, identityScreens } from './identity-screens';
import { apiCall, apiLogin, linkIn, mailFiles, newestMail, subAccount } from './real-product';

interface Account {
  client_type: string;
}

// Issue 25, items 10 and 11: sign-up names the organisation; an admin sees and sets each account's
// plan, and learns what BASIC means for who sees the records before an account is made.
describeInfra('journey: organisation name at sign-up, and plans in the Accounts screen (real product, chromium)', CHROMIUM, () => {
  jest.setTimeout(180_000);
  const screens = identityScreens('journey-accounts');
  const { newFounder, open, callsTo, get } = screens;
  const row = (page: Page, username: string) => page.getByTestId(`account-${username}`);
  const planOf = (page: Page, username: string) => page.getByRole('combobox', { name: `Plan of ${username}`, exact: true });

  it('signs up with an organisation name of its own, which the new organisation then carries', async () => {
    const before = mailFiles(screens.product);
    const page = await open('/register', { width: 1366 });
    for (const [label, value] of Object.entries({
      Username: 'hedy',
      Email: 'hedy@example.org',
      'First name': 'Hedy',
      'Last name': 'Lamarr',
      Password: 'frequency hopping',
      'Confirm password': 'frequency hopping',
      Description: 'Spread spectrum research',
    }))
      await field(page, label).fill(value);
    const organisation = field(page, 'Organisation name');
    // Left blank, the organisation is named after the person: the field says so with the name.
    await page.getByText('Left blank, the organisation is named after you (Hedy Lamarr)', { exact: false }).waitFor();
    await organisation.fill('Lamarr Wireless Lab');
    await saveScreenshot(page, 'journey-accounts-sign-up');
    await expectAccessible(page, 'journey-accounts-sign-up');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'journey-accounts-sign-up-phone');

    await button(page, 'Sign Up').click();
    await page.getByText('A registration email was sent to').waitFor();
    expect(callsTo('POST', '/api/register/')[0]).toMatchObject({ status: 201, body: { username: 'hedy', organisation_name: 'Lamarr Wireless Lab' } });
    const activated = await fetch(linkIn(await newestMail(screens.product, 'hedy@example.org', /activate/i, before)), { redirect: 'manual' });
    expect(activated.headers.get('location')).toMatch(/activated=1$/);
    const token = await apiLogin(screens.product, 'hedy', 'frequency hopping');
    const me = await get<{ organisation: string }>(token, '/api/account/user-account/');
    expect(await get(token, `/api/organisation/${me.organisation}/`)).toMatchObject({ name: 'Lamarr Wireless Lab' });

    // The Organisation tab shows it to its founder.
    const profile = await open('/profile?tab=organisation', {
      as: { id: '', username: 'hedy', email: '', password: '', organisation: me.organisation, token },
    });
    await eventually(async () => expect(await field(profile, 'Name').inputValue()).toBe('Lamarr Wireless Lab'));
  });

  it("lets an admin change each account's plan, asking before moving one to BASIC", async () => {
    const admin = await newFounder('plans');
    const clerk = await subAccount(screens.product, admin, `${admin.username}-cleo`, { groups: [3], first_name: 'Cleo', last_name: 'Clerk' });
    const page = await open('/profile?tab=accounts', { as: admin, width: 1366 });
    await row(page, clerk.username).waitFor();
    // One's own plan is shown, not changed.
    expect(await planOf(page, admin.username).count()).toBe(0);
    expect(await row(page, admin.username).getByText('STANDARD').isVisible()).toBe(true);
    expect(await planOf(page, clerk.username).inputValue()).toBe('BASIC');
    await page.getByText('On the BASIC plan, every record an account indexes is visible to everyone.', { exact: false }).waitFor();

    await saveScreenshot(page, 'journey-accounts-plans');
    await planOf(page, clerk.username).selectOption('STANDARD');
    await page.getByText(`${clerk.username} is now on the STANDARD plan.`).waitFor();
    expect(callsTo('PATCH', `/api/account/${clerk.id}/`).at(-1)).toMatchObject({ status: 200, body: { client_type: 'STANDARD' } });
    expect((await get<Account>(admin.token, `/api/account/${clerk.id}/`)).client_type).toBe('STANDARD');
    await expectAccessible(page, 'journey-accounts-plans');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'journey-accounts-plans-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Back to BASIC: the consequence is said first, and Cancel changes nothing.
    await planOf(page, clerk.username).selectOption('BASIC');
    const confirm = page.getByRole('alertdialog', { name: `Move ${clerk.username} to the BASIC plan` });
    await confirm.getByText('will be visible to everyone, visitors who are not signed in included', { exact: false }).waitFor();
    await saveScreenshot(page, 'journey-accounts-plan-confirm');
    await expectAccessible(page, 'journey-accounts-plan-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await planOf(page, clerk.username).inputValue()).toBe('STANDARD');
    expect((await get<Account>(admin.token, `/api/account/${clerk.id}/`)).client_type).toBe('STANDARD');

    await planOf(page, clerk.username).selectOption('BASIC');
    await confirm.getByRole('button', { name: 'Move to BASIC' }).click();
    await page.getByText(`${clerk.username} is now on the BASIC plan.`).waitFor();
    expect((await get<Account>(admin.token, `/api/account/${clerk.id}/`)).client_type).toBe('BASIC');
    expect(await planOf(page, clerk.username).inputValue()).toBe('BASIC');

    // A Data Viewer without account.change_userprofile sees the plans but cannot change them.
    const viewerPage = await open('/profile?tab=accounts', { as: clerk, width: 1366 });
    await row(viewerPage, admin.username).waitFor();
    expect(await viewerPage.getByRole('combobox', { name: /^Plan of / }).count()).toBe(0);
    expect(await row(viewerPage, admin.username).getByText('STANDARD').isVisible()).toBe(true);
  });

  it('says what BASIC means before New Account makes the account, and takes the plan chosen', async () => {
    const admin = await newFounder('newplan');
    const page = await open('/profile?tab=accounts', { as: admin, width: 1366 });
    await button(page, 'New Account').click();
    const dialog = page.getByRole('dialog', { name: 'New Account' });
    await dialog.waitFor();
    const plan = field(page, 'Plan');
    expect(await plan.inputValue()).toBe('BASIC');
    await dialog.getByText('Records of a BASIC account are visible to everyone.').waitFor();
    expect(await dialog.getByTestId('plan-help').textContent()).toContain('visitors who are not signed in included');
    const nina = `${admin.username}-nina`;
    await field(page, 'Username').fill(nina);
    await field(page, 'Email').fill(`${nina}@example.org`);
    await field(page, 'First name').fill('Nina');
    await field(page, 'Last name').fill('New');
    await field(page, 'Password').fill('welcome aboard');
    await field(page, 'Confirm password').fill('welcome aboard');
    await saveScreenshot(page, 'journey-accounts-new');
    await expectAccessible(page, 'journey-accounts-new');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'journey-accounts-new-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    await plan.selectOption('STANDARD');
    expect(await dialog.getByText('Records of a BASIC account are visible to everyone.').count()).toBe(0);
    expect(await dialog.getByTestId('plan-help').textContent()).toContain('start Private');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, nina).waitFor();
    expect(callsTo('POST', '/api/account/').at(-1)).toMatchObject({ status: 201, body: { username: nina, client_type: 'STANDARD' } });
    expect(await planOf(page, nina).inputValue()).toBe('STANDARD');
    const created = (await (await apiCall(screens.product, admin.token, 'GET', '/api/account/')).json()) as {
      results: Array<{ username: string; client_type: string }>;
    };
    expect(created.results.find((a) => a.username === nina)?.client_type).toBe('STANDARD');
  });
});
