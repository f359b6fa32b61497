import { createEvent, InvalidEventError, MailRequested } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { createTestDatabase, eventually, TestDatabase } from '@dc/testing';
import { IdentityTestApp, PUBLIC_URL } from '../../testing/identity-test-app';

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

  it('fills the plain template for another service: greeting, paragraphs, call to action under PUBLIC_URL, sign-off, escaped HTML', async () => {
    const event = createEvent(MailRequested, 'request-2', {
      to: 'reviewer@example.org',
      template: 'plain',
      values: {
        subject: 'New data request for <Rainfall>',
        greeting: 'Hello Ada,',
        paragraphs: ['Grace <grace@example.org> asked for "Rainfall & rivers".', 'Review it when you can.'],
        action: { label: 'Open the request', path: '/#/request?id=42' },
      },
    });
    await identity.app.get(EventBus).publish([event]);
    const mail = await eventually(async () => {
      const [found] = identity.mailsTo('reviewer@example.org');
      expect(found).toBeDefined();
      return found;
    });
    expect(mail.subject).toBe('New data request for <Rainfall>');
    expect(mail.text).toBe(
      `Hello Ada,\n\nGrace <grace@example.org> asked for "Rainfall & rivers".\n\nReview it when you can.\n\nOpen the request: ${PUBLIC_URL}/#/request?id=42\n\nThe Data Catalogue team\n`,
    );
    expect(mail.html).toContain('<p>Grace &lt;grace@example.org&gt; asked for &quot;Rainfall &amp; rivers&quot;.</p>');
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/#/request?id=42"`);
    expect(mail.html).toContain('<p>The Data Catalogue team</p>');
    expect(mail.html).not.toContain('<grace@');
  });

  it('uses the same layout for its own activation mail', async () => {
    await identity.signUp('layout');
    const mail = await eventually(async () => {
      const [found] = identity.mailsTo('layout@example.org');
      expect(found).toBeDefined();
      return found;
    });
    expect(mail.subject).toBe('Activate your Data Catalogue account');
    expect(mail.text).toMatch(
      new RegExp(
        `^Hello Ada,\\n\\n[\\s\\S]*\\n\\nActivate my account: ${PUBLIC_URL.replace(/\./g, '\\.')}/api/register/activate/\\?token=[\\w-]+\\n\\nThe Data Catalogue team\\n$`,
      ),
    );
    expect(mail.html).toMatch(/<a href="https:\/\/catalogue\.example\.test\/api\/register\/activate\/\?token=[\w-]+"[^>]*>Activate my account<\/a>/);
  });

  it('refuses a template request whose call to action leads away from the product, before it is published', () => {
    const values = { subject: 'Phish', paragraphs: ['Click'], action: { label: 'Here', path: 'https://evil.example/' } };
    expect(() => createEvent(MailRequested, 'request-3', { to: 'victim@example.org', template: 'plain', values })).toThrow(InvalidEventError);
  });
});
