import { createTransport, Transporter } from 'nodemailer';
import { DEFAULT_MAIL_FROM, Mailer, MailMessage, prepareMail } from './mailer';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps://... (TLS from the start). */
  url: string;
  defaultFrom?: string;
}

/** Distributed mode's mailer: hands every message to an SMTP server (SMTP_URL). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;
  private readonly defaultFrom: string;

  constructor(options: SmtpMailerOptions) {
    super();
    this.transport = createTransport(options.url);
    this.defaultFrom = options.defaultFrom ?? DEFAULT_MAIL_FROM;
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail(prepareMail(message, this.defaultFrom));
    // The server may accept the message while refusing the only recipient.
    if (info.rejected?.length) throw new Error(`SMTP server rejected recipient(s): ${info.rejected.map(String).join(', ')}`);
  }

  /** Connects and authenticates without sending, for start-up and health checks. */
  async verify(): Promise<void> {
    await this.transport.verify();
  }

  close(): void {
    this.transport.close();
  }
}
