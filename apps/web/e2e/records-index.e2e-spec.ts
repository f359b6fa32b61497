import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { maskCellValue } from '@dc/extraction';
import { DATASETS, describeInfra, eventually, expectAccessible, saveScreenshot } from '@dc/testing';
import { linkIn, newestMail, type RealProduct } from './real-product';
import { cellsOf, CHROMIUM, FILES, linesOf, recordsScreens, SEMICOLON_CSV, UPLOAD_TIMED_OUT, user } from './records-screens';

/**
 * Indexing records against the real product in embedded mode: sign up and log in, index each kind
 * of file through Add data → Index Files (with the CSV preview and the upload's progress), see its
 * details once extraction is done, see a bad file's errors and a stalled upload stopped, and delete
 * records.
 */
describeInfra('records screens end to end in embedded mode: indexing and deleting', CHROMIUM, () => {
  jest.setTimeout(300_000);
  const screens = recordsScreens('records-index');
  const { ids, field, button, hashOf, token, recordOf, chooseFiles, submitIndex, indexFiles, openDetails, signedInContext, deleteThroughDetails } = screens;
  let page: Page;
  let base: string;
  let product: RealProduct;
  let scratch: string;
  beforeAll(() => void ({ page, base, product, scratch } = screens));

  it('signs up, activates and logs in', async () => {
    await page.goto(`${base}/#/register`);
    await field('Username').fill(user.username);
    await field('Email').fill(user.email);
    await field('First name').fill('Ada');
    await field('Last name').fill('Lovelace');
    await field('Password').fill(user.password);
    await field('Confirm password').fill(user.password);
    await field('Description').fill('Notes on the analytical engine');
    await button('Sign Up').click();
    await page.getByText(`A registration email was sent to ${user.email}`, { exact: false }).waitFor();
    const link = linkIn(await newestMail(product, user.email, /activate/i));
    await page.goto(link);
    await page.getByText('Your account is activated. Please log in.').waitFor();
    await field('Username').fill(user.username);
    await field('Password').fill(user.password);
    await button('Login').click();
    await eventually(async () => expect(hashOf()).toBe('#/records'));
    // The login's redirects have settled once the Workspace shows.
    await page.getByRole('heading', { name: 'Workspace' }).waitFor();
    screens.adaToken = (await token()) ?? '';
    expect(screens.adaToken).not.toBe('');
  });

  it('previews one CSV with its own header row and the comma delimiter, shows the upload in progress, then its headers and row count', async () => {
    const lines = linesOf(FILES.csv);
    const headers = cellsOf(lines[0], ',');
    await chooseFiles([FILES.csv]);
    const preview = page.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await page.getByTestId('csv-preview-delimiter').textContent()).toBe('comma');
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(headers);
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ','));
    // 7 lines: the header and 6 rows.
    expect(await preview.locator('tbody tr').count()).toBe(6);
    await saveScreenshot(page, 'records-index-preview-comma');
    await expectAccessible(page, 'records-index-preview-comma');

    // The upload is held at the network until its loading state has been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${base}/api/records/`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await button('Index').click();
    await page.getByTestId('upload-progress').waitFor();
    await page.getByRole('button', { name: 'Uploading…' }).waitFor();
    expect(await page.getByRole('button', { name: 'Uploading…' }).isDisabled()).toBe(true);
    expect(await page.locator('input[type="file"]').isDisabled()).toBe(true);
    await saveScreenshot(page, 'records-index-uploading');
    await expectAccessible(page, 'records-index-uploading');
    release();
    const links = page.getByTestId('created-records').getByRole('link');
    await eventually(async () => expect(await links.count()).toBe(1), 120_000);
    await page.unroute(`${base}/api/records/`);
    expect(await page.getByTestId('upload-progress').count()).toBe(0);
    ids.csv = ((await links.first().getAttribute('href')) ?? '').replace(/^#\/records\//, '');
    await saveScreenshot(page, 'records-indexed-csv');
    await expectAccessible(page, 'records-indexed-csv');

    await openDetails(ids.csv);
    expect(await page.getByTestId('header-name').allTextContents()).toEqual(headers);
    expect(await page.getByTestId('file-total-rows').textContent()).toBe(String(lines.length - 1));
    expect(await page.getByTestId('record-owner').textContent()).toBe(user.username);
    expect(await page.getByTestId('record-size').textContent()).toMatch(/^\d+(\.\d+)? (Bytes|KB)$/);
    expect(await page.getByTestId('record-created').textContent()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await saveScreenshot(page, 'records-details-csv');
    await expectAccessible(page, 'records-details-csv');

    await page.getByRole('tab', { name: 'Statistics' }).click();
    await eventually(async () => expect(await page.getByTestId('stats-card').count()).toBe(headers.length));
    expect(await page.getByRole('img', { name: /^Histogram of Mean/ }).count()).toBe(1);
    await saveScreenshot(page, 'records-details-csv-statistics');
    await expectAccessible(page, 'records-details-csv-statistics');
    await page.getByRole('tab', { name: 'Formatted Values' }).click();
    const formatted = page.getByRole('table', { name: 'Formatted values' });
    await formatted.waitFor();
    expect(await formatted.locator('tbody tr').count()).toBe(5);
    // Indexed with the default extract option (metadata): values show as masks (docs/metadata-before-access.md).
    expect(await formatted.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ',').map(maskCellValue));
    expect(await page.getByTestId('masked-values-note').first().isVisible()).toBe(true);
    await expectAccessible(page, 'records-details-csv-formatted-values');
    await page.getByRole('tab', { name: 'Table Metadata' }).click();
    await page.getByTestId('table-section').getByText('comma', { exact: true }).waitFor();
    await expectAccessible(page, 'records-details-csv-table-metadata');
  });

  it('previews a semicolon CSV with its quoted header row and the semicolon delimiter, and indexes it', async () => {
    const lines = linesOf(SEMICOLON_CSV);
    await chooseFiles([SEMICOLON_CSV]);
    const preview = page.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await page.getByTestId('csv-preview-delimiter').textContent()).toBe('semicolon');
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(cellsOf(lines[0], ';'));
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual(cellsOf(lines[1], ';'));
    await saveScreenshot(page, 'records-index-preview-semicolon');
    await expectAccessible(page, 'records-index-preview-semicolon');
    [ids.semicolon] = await submitIndex(1);
    await openDetails(ids.semicolon);
    expect(await page.getByTestId('header-name').allTextContents()).toEqual(cellsOf(lines[0], ';'));
  });

  it('indexes one file of every other kind and shows each one’s details, every sheet of a workbook in Table Metadata', async () => {
    const kinds = Object.keys(FILES).filter((kind) => kind !== 'csv') as (keyof typeof FILES)[];
    const created = await indexFiles(kinds.map((kind) => FILES[kind]));
    kinds.forEach((kind, i) => (ids[kind] = created[i]));
    for (const kind of kinds) {
      await openDetails(ids[kind]);
      expect(await page.getByTestId('file-file').textContent()).toBe(path.basename(FILES[kind]));
      if (kind === 'xls' || kind === 'xlsx' || kind === 'hl7') expect(await page.getByTestId('header-name').count()).toBeGreaterThan(0);
      if (kind === 'pdf' || kind === 'docx' || kind === 'txt') {
        // Documents have words but no table: the Word Set tab shows, Statistics has no numbers, no Table Metadata.
        await page.getByRole('tab', { name: 'Word Set' }).waitFor();
        expect(await page.getByRole('tab', { name: 'Table Metadata' }).count()).toBe(0);
        await page.getByRole('tab', { name: 'Statistics' }).click();
        await page.getByText('No numerical data could be extracted.').waitFor();
      }
      if (kind === 'xls' || kind === 'xlsx') {
        const sheets = (await recordOf(ids[kind])).FILES[0].META?.SHEETS ?? [];
        expect(sheets.length).toBeGreaterThan(1);
        await page.getByRole('tab', { name: 'Table Metadata' }).click();
        await eventually(async () =>
          expect(await page.getByTestId('table-section').getByRole('heading').allTextContents()).toEqual(sheets.map((s) => `Sheet "${s.NAME}"`)),
        );
        for (const sheet of sheets.filter((s) => s.HEADERS.length > 0)) {
          expect(
            await page
              .getByRole('table', { name: `Headers of Sheet "${sheet.NAME}"` })
              .getByTestId('header-name')
              .allTextContents(),
          ).toEqual(sheet.HEADERS);
        }
        await saveScreenshot(page, `records-details-${kind}-table-metadata`);
        await expectAccessible(page, `records-details-${kind}-table-metadata`);
      }
      if (kind === 'hl7' || kind === 'zip') {
        await page.getByRole('tab', { name: 'Table Metadata' }).click();
        await page.getByTestId('table-section').first().waitFor();
        const headings = await page.getByTestId('table-section').getByRole('heading').allTextContents();
        if (kind === 'hl7') expect(headings).toEqual(['HL7 v2 messages']);
        else expect(headings.filter((h) => h.startsWith('Archive member ')).length).toBeGreaterThan(10);
      }
      await saveScreenshot(page, `records-details-${kind}`);
      await expectAccessible(page, `records-details-${kind}`);
    }
  });

  it('a bad file shows its extraction errors, and its Working tab does not stay', async () => {
    const broken = path.join(scratch, 'broken.xlsx');
    const bytes = readFileSync(path.join(DATASETS, FILES.xlsx));
    writeFileSync(broken, bytes.subarray(0, Math.floor(bytes.length / 3)));
    const empty = path.join(scratch, 'empty.csv');
    writeFileSync(empty, '');
    [ids.broken, ids.empty] = await indexFiles([broken, empty]);
    for (const [id, message] of [
      [ids.broken, /Damaged|zip/i],
      [ids.empty, /The file is empty/],
    ] as const) {
      await openDetails(id);
      const errors = page.getByTestId('extraction-errors');
      await errors.waitFor();
      expect(await errors.textContent()).toMatch(/Metadata could not be extracted/);
      expect(await errors.textContent()).toMatch(message);
      expect((await recordOf(id)).FILES[0].META?.ERRORS[0]).toMatch(message);
    }
    await saveScreenshot(page, 'records-details-bad-file');
    await expectAccessible(page, 'records-details-bad-file');
  });

  it('stops an upload still running after 180 s and says so (the page’s clock is fast-forwarded)', async () => {
    const { context, page: slow } = await signedInContext(user);
    await slow.clock.install();
    // The server never answers this upload.
    await slow.route(`${base}/api/records/`, () => undefined);
    await slow.goto(`${base}/#/indexdata`);
    await slow.locator('input[type="file"]').setInputFiles(path.join(DATASETS, FILES.csv));
    await button('Index', slow).click();
    await slow.getByTestId('upload-progress').waitFor();
    // The page's clock also runs on in real time (seconds, on a busy machine) between these steps:
    // 170 s leaves room for that and is still well before the 180 s limit.
    await slow.clock.fastForward(170_000);
    expect(await slow.getByTestId('upload-progress').count()).toBe(1);
    await slow.clock.fastForward(12_000);
    await slow.getByRole('alert').getByText(UPLOAD_TIMED_OUT).waitFor();
    expect(await slow.getByTestId('upload-progress').count()).toBe(0);
    expect(await button('Index', slow).isEnabled()).toBe(true);
    await saveScreenshot(slow, 'records-upload-timed-out');
    await context.close();
  });

  it('deletes records of several kinds after the confirmation', async () => {
    for (const kind of ['txt', 'zip', 'pdf', 'semicolon', 'broken']) await deleteThroughDetails(ids[kind]);
    await saveScreenshot(page, 'records-after-delete');
    await expectAccessible(page, 'records-after-delete');
  });
});
