import { InMemoryMailer } from './in-memory-mailer';
import { CONTRACT_DEFAULT_FROM, mailerContract } from './mailer.contract';

const mailer = new InMemoryMailer(CONTRACT_DEFAULT_FROM);
mailerContract(
  'in-memory',
  async () => ({ mailer, close: async () => undefined }),
  async () => mailer.sent.map((mail) => ({ ...mail, to: [mail.to] })),
);
