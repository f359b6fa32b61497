import { randomBytes } from 'node:crypto';
import { InvalidMailMessageError, Mailer } from './mailer';

/** A message as the far end saw it, whatever the adapter. */
export interface SentMail {
  from: string;
  /** Recipients (the To header, or the envelope where there is one). */
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export const CONTRACT_DEFAULT_FROM = 'Data Catalogue <no-reply@catalogue.test>';

/**
 * The one contract every Mailer adapter passes. The factory builds the adapter with
 * CONTRACT_DEFAULT_FROM as its default sender; readSent returns everything delivered so far.
 */
export function mailerContract(name: string, factory: () => Promise<{ mailer: Mailer; close(): Promise<void> }>, readSent: () => Promise<SentMail[]>): void {
  describe(`Mailer contract: ${name}`, () => {
    let mailer: Mailer;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ mailer, close } = await factory());
    });
    afterAll(async () => {
      await close?.();
    });

    // Each test mails its own recipient, so it finds its message among the others.
    const recipient = () => `user-${randomBytes(4).toString('hex')}@example.test`;
    const sentTo = async (to: string) => (await readSent()).filter((mail) => mail.to.includes(to));

    it('delivers to, subject and text, from the default sender', async () => {
      const to = recipient();
      await mailer.send({ to, subject: 'Activate your account', text: 'Hello,\n\nopen http://localhost/activate/abc to activate.\n' });
      const [mail, ...others] = await sentTo(to);
      expect(others).toEqual([]);
      expect(mail.subject).toBe('Activate your account');
      expect(mail.text.replace(/\r\n/g, '\n')).toBe('Hello,\n\nopen http://localhost/activate/abc to activate.\n');
      expect(mail.from).toContain('no-reply@catalogue.test');
      expect(mail.html).toBeUndefined();
    });

    it('keeps non-ASCII text and long lines intact', async () => {
      const to = recipient();
      const text = `Grüße aus İstanbul — 👋\n${'a long line of words '.repeat(20).trim()}\n`;
      await mailer.send({ to, subject: 'Şifre sıfırlama – ✓', text });
      const [mail] = await sentTo(to);
      expect(mail.subject).toBe('Şifre sıfırlama – ✓');
      expect(mail.text.replace(/\r\n/g, '\n')).toBe(text);
    });

    it('sends an HTML alternative and honours an explicit sender', async () => {
      const to = recipient();
      await mailer.send({ to, from: 'Requests <requests@catalogue.test>', subject: 'New request', text: 'plain', html: '<p>Hello <b>there</b></p>' });
      const [mail] = await sentTo(to);
      expect(mail.text).toBe('plain');
      expect(mail.html).toBe('<p>Hello <b>there</b></p>');
      expect(mail.from).toContain('requests@catalogue.test');
    });

    it('delivers several messages separately', async () => {
      const to = recipient();
      for (const n of [1, 2, 3]) await mailer.send({ to, subject: `Message ${n}`, text: `body ${n}` });
      expect((await sentTo(to)).map((mail) => mail.subject).sort()).toEqual(['Message 1', 'Message 2', 'Message 3']);
    });

    it('refuses line breaks in headers instead of letting them add headers', async () => {
      const to = recipient();
      await expect(mailer.send({ to, subject: 'Hi\r\nBcc: victim@example.test', text: 'x' })).rejects.toBeInstanceOf(InvalidMailMessageError);
      await expect(mailer.send({ to: `${to}\nBcc: victim@example.test`, subject: 'Hi', text: 'x' })).rejects.toBeInstanceOf(InvalidMailMessageError);
      await expect(mailer.send({ to: ' ', subject: 'Hi', text: 'x' })).rejects.toBeInstanceOf(InvalidMailMessageError);
      expect(await sentTo(to)).toEqual([]);
    });
  });
}
