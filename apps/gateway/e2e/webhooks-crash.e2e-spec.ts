import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureServerBuild, type EmbeddedProduct, eventually, startEmbeddedProduct, WebhookReceiver } from '@dc/testing';
import { activateAndLogin, callApi, register } from './flows';

const PASSWORD = 'correct horse battery';

/**
 * At least once across a crash: the product is killed (SIGKILL) while a webhook delivery is being
 * sent (the receiver holds the request without answering), then started again on the same DATA_DIR
 * and database. The delivery arrives again with the same webhook-id and is delivered exactly once.
 */
describe('signed webhooks across a kill -9 of the embedded product', () => {
  jest.setTimeout(900_000);
  let dataDir: string;
  let receiver: WebhookReceiver;
  let product: EmbeddedProduct | undefined;
  const start = () =>
    startEmbeddedProduct('webhooks-crash', (base) => ({
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1',
      // Long enough that the attempt is still waiting when the product is killed; its claim then
      // runs out 5 s after this, and the restarted product sends it again.
      WEBHOOK_ATTEMPT_TIMEOUT_MS: '15000',
      WEBHOOK_POLL_MS: '250',
    }));

  beforeAll(async () => {
    ensureServerBuild();
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-webhooks-crash-'));
    receiver = await WebhookReceiver.start();
    // The first attempt is held unanswered (the product dies meanwhile); later ones are answered 200.
    receiver.behaviour = (_path, earlier) => (earlier.length === 0 ? 'hang' : 200);
  });

  afterAll(async () => {
    await product?.stop();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends a delivery claimed by a killed process again after the restart, with the same webhook-id, once', async () => {
    product = await start();
    expect((await register(product.base, 'hooks', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(product.base, path.join(dataDir, 'mail'), 'hooks', PASSWORD);
    const auth = { authorization: `JWT ${token}` };
    const endpoint = await callApi(product.base, auth, 'POST', '/api/webhooks/', { url: receiver.url('/hook'), event_types: ['record.created'] });
    expect(endpoint.status).toBe(201);
    const { id: endpointId, secret } = endpoint.body as { id: string; secret: string };

    const record = await callApi(product.base, auth, 'POST', '/api/records/', { name: 'Rainfall at the crash', description: 'Daily totals', access: 'OP' });
    expect(record.status).toBe(201);
    // The delivery is on its way: the receiver holds it. Now the product dies.
    await eventually(async () => expect(receiver.on('/hook')).toHaveLength(1), 120_000);
    product.app.process.kill('SIGKILL');
    await product.app.exited;
    product = undefined;

    product = await start();
    await eventually(async () => expect(receiver.on('/hook')).toHaveLength(2), 180_000);
    const [held, sent] = receiver.on('/hook');
    expect(held.answered).toBe(0);
    expect(sent.answered).toBe(200);
    expect(sent.headers['webhook-id']).toBe(held.headers['webhook-id']);
    const verified = new Webhook(secret).verify(sent.body, sent.headers) as { type: string; payload: { recordId: string; name: string } };
    expect(verified).toMatchObject({ type: 'record.created', payload: { recordId: (record.body as { id: string }).id, name: 'Rainfall at the crash' } });
    expect(JSON.parse(sent.body)).toEqual(JSON.parse(held.body));

    // The log says delivered, on the second attempt; nothing more is sent.
    await eventually(async () => {
      const log = await callApi(product!.base, auth, 'GET', `/api/webhooks/${endpointId}/deliveries/`);
      expect(log.body.results).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, last_status_code: 200, event_type: 'record.created' })]);
    }, 60_000);
    expect(receiver.on('/hook')).toHaveLength(2);
  });
});
