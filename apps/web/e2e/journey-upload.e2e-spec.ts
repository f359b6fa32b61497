import path from 'node:path';
import type { Page } from 'playwright-core';
import { DATASETS, describeInfra, eventually, expectAccessible, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, field, identityScreens } from './identity-screens';
import { apiCall, subAccount } from './real-product';

const GLOBAL = path.join(DATASETS, 'csv/co2-annmean-gl.csv');
const MAUNA_LOA = path.join(DATASETS, 'csv/co2-annmean-mlo.csv');

interface ApiRecord {
  id: string;
  name: string;
  alt_name: string;
  description: string;
  visibility: string;
  access: string;
}

// Issue 25, items 4 and 11: the upload form says who will see the new records and lets the owner
// choose (a BASIC account's are visible to everyone, shown with the reason), and each file of a
// multi-file upload gets its own name and description.
describeInfra('journey: uploading files with their visibility, access and per-file names (real product, chromium)', CHROMIUM, () => {
  jest.setTimeout(240_000);
  const screens = identityScreens('journey-upload');
  const { newFounder, open, callsTo } = screens;

  const indexFiles = async (page: Page, files: string[]) => {
    await page.getByRole('tab', { name: 'Index Files' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(files);
  };
  const createdIds = async (page: Page, count: number): Promise<string[]> => {
    const links = page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(count), 120_000);
    return (await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))).map((href) => href.replace(/^#\/records\//, ''));
  };
  const record = async (token: string | null, id: string) => apiCall(screens.product, token, 'GET', `/api/records/${id}/`);

  it('names and describes each file, and makes the records visible to everyone and open when chosen', async () => {
    const owner = await newFounder('uploader');
    const page = await open('/indexdata', { as: owner, width: 1366 });
    await indexFiles(page, [GLOBAL, MAUNA_LOA]);

    // Two files: one name and description per file instead of the shared ones.
    await page.getByRole('group', { name: 'Name and description of each record' }).waitFor();
    expect(await field(page, 'Record name').count()).toBe(0);
    expect(await field(page, 'Description').count()).toBe(0);
    const visibility = field(page, 'Visibility');
    expect(await visibility.inputValue()).toBe('PR');
    expect(await field(page, 'Access').inputValue()).toBe('RE');

    await field(page, 'Name of co2-annmean-gl.csv').fill('Global CO2, annual mean');
    await field(page, 'Description of co2-annmean-gl.csv').fill('Global average of marine surface sites.');
    await field(page, 'Description of co2-annmean-mlo.csv').fill('Measured at Mauna Loa, Hawaii.');
    await visibility.selectOption('EV');
    await page.getByText('Anyone, visitors who are not signed in included, can find the new records').waitFor();
    await field(page, 'Access').selectOption('OP');
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'journey-upload-form');
    await expectAccessible(page, 'journey-upload-form');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'journey-upload-form-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // A name too long for the server: its answer names the file, and nothing is created.
    await field(page, 'Name of co2-annmean-gl.csv').fill('x'.repeat(256));
    await button(page, 'Index').click();
    await alert(page).getByText('File 1: name: Ensure this field has no more than 255 characters.').waitFor();
    expect(callsTo('POST', '/api/records/').at(-1)?.status).toBe(400);
    expect(await page.getByTestId('created-records').count()).toBe(0);
    await field(page, 'Name of co2-annmean-gl.csv').fill('Global CO2, annual mean');

    await button(page, 'Index').click();
    const [global, maunaLoa] = await createdIds(page, 2);
    const [first, second] = await Promise.all([global, maunaLoa].map(async (id) => (await (await record(owner.token, id)).json()) as ApiRecord));
    expect(first).toMatchObject({
      name: 'Global CO2, annual mean',
      alt_name: 'co2-annmean-gl.csv',
      description: 'Global average of marine surface sites.',
      visibility: 'EV',
      access: 'OP',
    });
    expect(second).toMatchObject({ name: 'co2-annmean-mlo.csv', description: 'Measured at Mauna Loa, Hawaii.', visibility: 'EV', access: 'OP' });
    // Everyone includes visitors who are not signed in.
    expect((await record(null, global)).status).toBe(200);
    // The form is ready for the next upload, with today's defaults back for the files.
    expect(await page.getByRole('group', { name: 'Name and description of each record' }).count()).toBe(0);
    expect(await visibility.inputValue()).toBe('PR');
    expect(await field(page, 'Access').inputValue()).toBe('RE');
  });

  it('keeps Private as the default: a record uploaded without a choice is not visible to visitors', async () => {
    const owner = await newFounder('private');
    const page = await open('/indexdata', { as: owner, width: 1366 });
    await indexFiles(page, [GLOBAL]);
    await field(page, 'Record name').waitFor();
    expect(await page.getByText('Only you see the new records until you share them.', { exact: false }).isVisible()).toBe(true);
    await button(page, 'Index').click();
    const [id] = await createdIds(page, 1);
    expect(((await (await record(owner.token, id)).json()) as ApiRecord).visibility).toBe('PR');
    expect((await record(null, id)).status).not.toBe(200);
  });

  it('tells a BASIC account, before indexing, that its records will be visible to everyone', async () => {
    const admin = await newFounder('team');
    const basic = await subAccount(screens.product, admin, `${admin.username}-bea`, { groups: [3], client_type: 'BASIC' });
    const page = await open('/indexdata', { as: basic, width: 1366 });
    await indexFiles(page, [MAUNA_LOA]);
    const warning = page.getByTestId('basic-visibility');
    await warning.getByText('These records will be visible to everyone.').waitFor();
    expect(await warning.textContent()).toContain('visitors who are not signed in included');
    const visibility = field(page, 'Visibility');
    expect(await visibility.isDisabled()).toBe(true);
    expect(await visibility.inputValue()).toBe('EV');
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'journey-upload-basic');
    await expectAccessible(page, 'journey-upload-basic');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'journey-upload-basic-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    await button(page, 'Index').click();
    const [id] = await createdIds(page, 1);
    expect(((await (await record(basic.token, id)).json()) as ApiRecord).visibility).toBe('EV');
  });
});
