import { createEvent, MailRequested } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, eventually, TestDatabase } from '@dc/testing';
import { IdentityTestApp } from '../../testing/identity-test-app';

describe('mail requested by other services', () => {
  let db: TestDatabase;
  let identity: IdentityTestApp;

  beforeAll(async () => {
    db = await createTestDatabase('dc_identity_mail');
    identity = await IdentityTestApp.start(db.url);
  });
  afterAll(async () => {
    await identity?.close();
    await db?.drop();
  });

  it('sends each requested mail once, even when the event is delivered twice', async () => {
    const event = createEvent(MailRequested, 'request-1', { to: 'owner@example.org', subject: 'New data request', text: 'Someone asked for your record.' });
    const bus = identity.app.get(EventBus);
    await bus.publish([event]);
    await bus.publish([event]);
    await eventually(async () => expect(identity.mailsTo('owner@example.org')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    const [mail] = identity.mailsTo('owner@example.org');
    expect(mail).toMatchObject({ subject: 'New data request' });
    expect(mail.text).toContain('Someone asked for your record.');
    expect(identity.mailsTo('owner@example.org')).toHaveLength(1);
  });
});
