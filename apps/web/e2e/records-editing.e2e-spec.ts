import type { Page } from 'playwright-core';
import { describeInfra, eventually, expectAccessible, saveScreenshot } from '@dc/testing';
import { signUpAndActivate, type RealProduct } from './real-product';
import { bob, CHROMIUM, clerk, curator, FILES, recordsScreens, UPGRADE_TEXT, user } from './records-screens';

/**
 * Editing records against the real product in embedded mode: edit records, share one with a chosen
 * organisation and user, and see what a BASIC sub-account and a Data Admin are offered.
 */
describeInfra('records screens end to end in embedded mode: editing and sharing', CHROMIUM, () => {
  jest.setTimeout(300_000);
  const screens = recordsScreens('records-editing');
  const { ids, field, button, hashOf, api, apiGet, recordOf, indexFiles, openDetails, tokenOf, signedInContext } = screens;
  let page: Page;
  let base: string;
  let product: RealProduct;
  beforeAll(async () => {
    // The owner, signed in, and the records the tests edit, indexed through Add data → Index Files as records-index does.
    await signUpAndActivate(screens.product, { ...user, first_name: 'Ada', last_name: 'Lovelace', description: 'Notes on the analytical engine' });
    screens.adaToken = await tokenOf(user);
    screens.page = (await signedInContext(user)).page;
    const kinds = ['csv', 'xls', 'xlsx', 'hl7'] as const;
    const created = await indexFiles(kinds.map((kind) => FILES[kind]));
    kinds.forEach((kind, i) => (ids[kind] = created[i]));
    for (const kind of kinds) await openDetails(ids[kind]);
    ({ page, base, product } = screens);
  });

  it('edits the description and makes the record visible to everyone', async () => {
    const id = ids.csv;
    expect((await apiGet(`/api/records/${id}/`, null)).status).toBe(404);
    await page.goto(`${base}/#/records/${id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/edit/${id}`));
    await field('Description').waitFor();
    await field('Description').fill('Annual mean CO2 at Mauna Loa');
    await page.locator('select[name="visibility"]').selectOption('EV');
    await page.locator('select[name="access"]').selectOption('OP');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    await page.getByText('Annual mean CO2 at Mauna Loa').first().waitFor();
    expect(await page.getByTestId('record-visibility').textContent()).toBe('Everyone');
    expect(await page.getByTestId('record-access').textContent()).toBe('Open');
    // Open access: the owner's download button is red.
    await button('Download').waitFor();
    await saveScreenshot(page, 'records-after-edit');
    await expectAccessible(page, 'records-after-edit');

    const anonymous = await apiGet(`/api/records/${id}/`, null);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({ description: 'Annual mean CO2 at Mauna Loa', visibility: 'EV', access: 'OP' });
  });

  it('edits a workbook record: name, custom field, access fee and currency', async () => {
    const id = ids.xlsx;
    await page.goto(`${base}/#/records/edit/${id}`);
    await field('Name').waitFor();
    await field('Name').fill('Auto MPG');
    await page.getByRole('button', { name: /add field/i }).click();
    await page.getByPlaceholder(/label/i).last().fill('Origin');
    await page.getByPlaceholder(/value/i).last().fill('StatLib');
    await field('Access fee').fill('12.50');
    await page.locator('select[name="currency"]').selectOption('EUR');
    await saveScreenshot(page, 'records-edit-xlsx');
    await expectAccessible(page, 'records-edit-xlsx');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    await page.getByRole('heading', { name: 'Auto MPG' }).waitFor();
    expect(await page.getByTestId('record-access-fee').textContent()).toBe('12.5 EUR');
    expect(await (await apiGet(`/api/records/${id}/`, screens.adaToken)).json()).toMatchObject({
      name: 'Auto MPG',
      accessFee: 12.5,
      currency: 'EUR',
      RECORD: { Origin: 'StatLib' },
    });
  });

  it('shares a record with an organisation and a user chosen in the CU pickers (Add disabled until a valid choice)', async () => {
    await signUpAndActivate(product, bob);
    const bobToken = await tokenOf(bob);
    const id = ids.hl7;
    expect((await apiGet(`/api/records/${id}/`, bobToken)).status).toBe(404);

    await page.goto(`${base}/#/records/edit/${id}`);
    await page.locator('select[name="visibility"]').selectOption('CU');
    // The pickers' inputs, each tied to its datalist of names.
    const organisations = page.locator('input[list]').nth(0);
    const users = page.locator('input[list]').nth(1);
    const addOrganisation = page.getByRole('button', { name: 'Add organisations' });
    const addUser = page.getByRole('button', { name: 'Add users' });
    expect(await addOrganisation.isDisabled()).toBe(true);
    // A part of a name is not a choice; the whole name from the autofill list is.
    await organisations.fill('bob');
    await page.locator('datalist option[value="bob Tester"]').first().waitFor({ state: 'attached' });
    expect(await addOrganisation.isDisabled()).toBe(true);
    await organisations.fill('bob Tester');
    await eventually(async () => expect(await addOrganisation.isDisabled()).toBe(false));
    await addOrganisation.click();
    await page.getByLabel('Chosen organisations').getByText('bob Tester').waitFor();
    expect(await addOrganisation.isDisabled()).toBe(true);

    expect(await addUser.isDisabled()).toBe(true);
    await users.fill('nobody at all');
    expect(await addUser.isDisabled()).toBe(true);
    await users.fill('bob Tester (bob)');
    await eventually(async () => expect(await addUser.isDisabled()).toBe(false));
    await addUser.click();
    await page.getByLabel('Chosen users').getByText('bob Tester (bob)').waitFor();
    await saveScreenshot(page, 'records-edit-custom');
    await expectAccessible(page, 'records-edit-custom');
    await button('Save').click();
    await eventually(async () => expect(hashOf()).toBe(`#/records/${id}`));
    expect(await page.getByTestId('record-visibility').textContent()).toBe('Custom');

    const visibility = (await (await apiGet(`/api/visibilities/?associated_record=${id}`, screens.adaToken)).json()) as {
      results: Array<Record<string, unknown>>;
    };
    expect(visibility.results[0]).toMatchObject({
      visibility_selection: 'CU',
      organisations_with_visibility: [{ id: expect.any(String), name: 'bob Tester' }],
      // The catalogue names users by their username.
      users_with_visibility: [{ id: expect.any(String), name: bob.username }],
    });
    expect((await apiGet(`/api/records/${id}/`, bobToken)).status).toBe(200);
  });

  it('a Data Admin of the organisation may download a Request-access record; a Data Viewer gets Request', async () => {
    for (const [who, groups, clientType] of [
      [curator, [2], 'STANDARD'],
      [clerk, [3], undefined],
    ] as const) {
      const created = await api('POST', '/api/account/', screens.adaToken, {
        username: who.username,
        email: who.email,
        first_name: who.username,
        last_name: 'Staff',
        password: who.password,
        groups,
        ...(clientType ? { client_type: clientType } : {}),
      });
      expect(created.status).toBe(201);
    }
    const id = ids.xls;
    expect((await recordOf(id)).access).toBe('RE');

    const admin = await signedInContext(curator);
    await openDetails(id, admin.page);
    await button('Download', admin.page).waitFor();
    expect(await button('Request', admin.page).count()).toBe(0);
    await saveScreenshot(admin.page, 'records-details-data-admin');
    await expectAccessible(admin.page, 'records-details-data-admin');
    await admin.context.close();

    const viewer = await signedInContext(clerk);
    await openDetails(id, viewer.page);
    await button('Request', viewer.page).waitFor();
    expect(await button('Download', viewer.page).count()).toBe(0);
    await viewer.context.close();
  });

  it('a BASIC sub-account sees visibility and policy disabled with the upgrade tooltip linking to #/indexdata, and visibility EV', async () => {
    const { context, page: basic } = await signedInContext(clerk);
    await basic.goto(`${base}/#/indexdata`);
    await field('Record name', basic).fill('Clerk notes');
    await button('Index', basic).click();
    const link = basic.getByTestId('created-records').getByRole('link');
    await link.waitFor();
    const id = ((await link.getAttribute('href')) ?? '').replace(/^#\/records\//, '');
    await basic.goto(`${base}/#/records/edit/${id}`);
    const visibility = basic.locator('select[name="visibility"]');
    await visibility.waitFor();
    expect(await visibility.isDisabled()).toBe(true);
    expect(await visibility.inputValue()).toBe('EV');
    expect(await basic.locator('select[name="policy"]').isDisabled()).toBe(true);
    // The tooltip opens 200 ms after the pointer enters; a re-render meanwhile (the page's queries
    // settling, late on a busy machine) can cancel that, so the pointer leaves and hovers again, as a
    // user would, until it shows.
    const tooltip = basic.getByText(UPGRADE_TEXT);
    for (let attempt = 0; attempt < 5 && !(await tooltip.isVisible()); attempt++) {
      await basic.mouse.move(0, 0);
      await visibility.hover({ force: true });
      await tooltip.waitFor({ timeout: 5000 }).catch(() => undefined);
    }
    await tooltip.waitFor();
    await saveScreenshot(basic, 'records-edit-basic');
    await expectAccessible(basic, 'records-edit-basic');
    const upgrade = basic.getByRole('link', { name: 'Upgrade' });
    expect(await upgrade.count()).toBe(2);
    expect(await upgrade.first().getAttribute('href')).toBe('#/indexdata');
    await upgrade.first().click();
    await eventually(async () => expect(hashOf(basic)).toBe('#/indexdata'));
    await context.close();
  });
});
