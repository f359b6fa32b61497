import { DEFAULT_MAIL_FROM, Mailer, MailMessage, OutgoingMail, prepareMail } from './mailer';

/** Keeps messages in memory; for service tests that assert what would have been mailed. */
export class InMemoryMailer extends Mailer {
  readonly sent: OutgoingMail[] = [];

  constructor(private readonly defaultFrom = DEFAULT_MAIL_FROM) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    this.sent.push(prepareMail(message, this.defaultFrom));
  }

  clear(): void {
    this.sent.length = 0;
  }
}
