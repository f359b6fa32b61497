import { startSmtpServer, TestSmtpServer } from '@dc/testing';
import { CONTRACT_DEFAULT_FROM, mailerContract } from './mailer.contract';
import { parseRawMail } from './raw-mail';
import { SmtpMailer } from './smtp-mailer';

let contractServer: TestSmtpServer;
mailerContract(
  'smtp (smtp-server)',
  async () => {
    contractServer = await startSmtpServer();
    const mailer = new SmtpMailer({ url: contractServer.url, defaultFrom: CONTRACT_DEFAULT_FROM });
    return {
      mailer,
      async close() {
        mailer.close();
        await contractServer.stop();
      },
    };
  },
  async () =>
    contractServer.messages.map((message) => {
      const parsed = parseRawMail(message.raw);
      return { from: parsed.from, to: message.to, subject: parsed.subject, text: parsed.text ?? '', html: parsed.html };
    }),
);

describe('SmtpMailer specifics', () => {
  let server: TestSmtpServer;
  beforeAll(async () => {
    server = await startSmtpServer();
  });
  afterAll(() => server.stop());

  it('authenticates, and uses the sender and recipient as envelope and headers', async () => {
    const mailer = new SmtpMailer({ url: server.url, defaultFrom: 'Catalogue <no-reply@catalogue.test>' });
    await mailer.verify();
    await mailer.send({ to: 'envelope@example.test', subject: 'Envelope', text: 'x' });
    mailer.close();
    const message = server.messages.find((m) => m.to.includes('envelope@example.test'));
    expect(message).toMatchObject({ from: 'no-reply@catalogue.test', to: ['envelope@example.test'], user: server.user });
    expect(parseRawMail(message?.raw ?? '').to).toBe('envelope@example.test');
  });

  it('fails when the credentials are wrong', async () => {
    const url = new URL(server.url);
    url.password = 'wrong';
    const mailer = new SmtpMailer({ url: url.toString() });
    await expect(mailer.send({ to: 'nobody@example.test', subject: 'x', text: 'y' })).rejects.toThrow(/Invalid username or password|auth/i);
    mailer.close();
    expect(server.messages.some((m) => m.to.includes('nobody@example.test'))).toBe(false);
  });

  it('fails when no server listens', async () => {
    const other = await startSmtpServer();
    const url = other.url;
    await other.stop();
    const mailer = new SmtpMailer({ url });
    await expect(mailer.send({ to: 'a@example.test', subject: 'x', text: 'y' })).rejects.toThrow(/ECONNREFUSED|connect/i);
    mailer.close();
  });
});
