import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describeInfra, eventually, expectAccessible, launchChromium, saveScreenshot, WebhookReceiver } from '@dc/testing';
import { CHROMIUM, PASSWORD, TOKEN_KEY } from './identity-screens';
import { founder, type RealProduct, type SignedIn, startRealProduct, subAccount } from './real-product';

// Webhook settings and the delivery log on the Organisation tab, against the real product in
// embedded mode and a real HTTP receiver on a loopback port (allowed by ALLOWED_PRIVATE_ENDPOINTS),
// whose deliveries are verified with the standardwebhooks package.
describeInfra('webhooks in chromium (real product, real receiver): the Organisation tab', CHROMIUM, () => {
  jest.setTimeout(240_000);
  let product: RealProduct;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let receiver: WebhookReceiver;

  const open = async (as: SignedIn): Promise<Page> => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(
      ({ key, token }) => {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem(key, token);
      },
      { key: TOKEN_KEY, token: as.token },
    );
    const page = await context.newPage();
    await page.goto(`${product.base}/#/profile?tab=organisation`);
    await page.getByRole('region', { name: 'Organisation' }).waitFor();
    return page;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    product = await startRealProduct('webhooks-web', {
      ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '400',
      WEBHOOK_MAX_ATTEMPTS: '2',
      WEBHOOK_POLL_MS: '200',
    });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await receiver?.stop();
  }, 60_000);

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  it('lets a Data Admin add an endpoint, shows its secret once, sends a test event and shows a failed delivery in the log', async () => {
    const admin = await founder(product, 'hooksadmin', PASSWORD);
    const page = await open(admin);
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhook endpoints yet. Add one below.').waitFor();
    await saveScreenshot(page, 'webhooks-empty');
    await expectAccessible(page, 'webhooks-empty');

    // Required URL; an address the operator did not allow is refused by the server, next to the field.
    await section.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    await section.getByText('URL is required.').waitFor();
    await section.getByLabel(/^Endpoint URL/).fill('http://10.0.0.1/hook');
    await section.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    await section
      .getByText(/ALLOWED_PRIVATE_ENDPOINTS/)
      .first()
      .waitFor();

    await section.getByLabel(/^Endpoint URL/).fill(receiver.url('/hook'));
    await section.getByLabel(/^Endpoint description/).fill('Our portal');
    await section.getByText('Request created', { exact: true }).click();
    await section.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    const endpoint = section.getByRole('article', { name: `Webhook endpoint ${receiver.url('/hook')}` });
    await endpoint.getByText('Copy the signing secret now: it is shown only once.').waitFor();
    const secret = await endpoint.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await endpoint.getByRole('button', { name: 'Copy signing secret' }).isVisible()).toBe(true);
    await endpoint.getByText('Events: Record created, Request created').waitFor();
    await endpoint.getByText('Nothing was sent to this endpoint yet.').waitFor();
    await saveScreenshot(page, 'webhooks-secret-once');
    await expectAccessible(page, 'webhooks-secret-once');

    // Send test event: delivered, signed as the standard says.
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await endpoint.getByRole('status').getByText('Test event delivered: the endpoint answered 200.').waitFor();
    expect(receiver.on('/hook')).toHaveLength(1);
    expect(new Webhook(secret).verify(receiver.on('/hook')[0].body, receiver.on('/hook')[0].headers)).toMatchObject({ type: 'webhook.test' });
    await endpoint
      .getByRole('table', { name: `Deliveries to ${receiver.url('/hook')}` })
      .getByText('Delivered', { exact: true })
      .waitFor();

    // The endpoint fails: tried twice, then shown failed, with its answer, and can be sent again.
    receiver.behaviour = () => 500;
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await endpoint.getByRole('status').getByText('Test event failed: The endpoint answered 500.').waitFor({ timeout: 30_000 });
    const log = endpoint.getByRole('table', { name: `Deliveries to ${receiver.url('/hook')}` });
    await log.getByText('Failed', { exact: true }).waitFor();
    expect(receiver.on('/hook')).toHaveLength(3);
    await saveScreenshot(page, 'webhooks-delivery-log');
    await expectAccessible(page, 'webhooks-delivery-log');
    receiver.behaviour = () => 200;
    await log.getByRole('button', { name: 'Send again' }).click();
    await eventually(async () => expect(receiver.on('/hook')).toHaveLength(4));
    await eventually(async () => expect(await log.getByText('Delivered', { exact: true }).count()).toBe(2));

    // After a reload the secret is not shown again.
    await page.reload();
    await page.getByRole('region', { name: 'Webhooks' }).getByRole('article').waitFor();
    expect(await page.getByText('Copy the signing secret now: it is shown only once.').count()).toBe(0);
  });

  it('shows no webhook settings to a member who is not a Data Admin', async () => {
    const admin = await founder(product, 'hooksowner', PASSWORD);
    const viewer = await subAccount(product, admin, 'hooksviewer', { groups: [3] });
    const page = await open(viewer);
    await page.getByRole('region', { name: 'Organisation' }).getByLabel(/^Name/).waitFor();
    expect(await page.getByRole('region', { name: 'Webhooks' }).count()).toBe(0);
  });
});
