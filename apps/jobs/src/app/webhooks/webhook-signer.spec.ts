import { Webhook } from 'standardwebhooks';
import { retryDelayMs } from './webhook';
import { newWebhookSecret, signWebhook, webhookHeaders } from './webhook-signer';

describe('webhook signatures and back-off', () => {
  it('signs as the standardwebhooks package does, and its verify accepts the headers', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'e1', type: 'record.created', payload: { name: 'Rainfall ü' } });
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    expect(signWebhook(secret, 'msg_1', timestamp, body)).toBe(new Webhook(secret).sign('msg_1', now, body));
    expect(new Webhook(secret).verify(body, webhookHeaders(secret, 'msg_1', timestamp, body))).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, webhookHeaders(secret, 'msg_1', timestamp, body))).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, webhookHeaders(secret, 'msg_1', timestamp, body))).toThrow();
  });

  it('waits 10 s, 30 s, 1.5 min ... after failures, up to the cap', () => {
    const settings = { retryBaseMs: 10_000, retryMaxMs: 3_600_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, settings))).toEqual([10_000, 30_000, 90_000, 270_000, 810_000, 2_430_000, 3_600_000, 3_600_000]);
  });
});
