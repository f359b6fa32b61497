import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Mailer, MailTemplate, renderMailTemplate } from '@dc/mailer';
import { APP_CONFIG, AppConfig, LOGGER } from '@dc/platform';

export const ACTIVATION_MAIL: MailTemplate = {
  subject: 'Activate your Data Catalogue account',
  text: `Hello {{ first_name }},

Thank you for signing up to the Data Catalogue as {{ username }}. Follow this link to activate your account:

{{ link }}

The link works once and expires in 3 days. If you did not sign up, ignore this message.
`,
  html: `<p>Hello {{ first_name }},</p>
<p>Thank you for signing up to the Data Catalogue as <b>{{ username }}</b>. Follow this link to activate your account:</p>
<p><a href="{{ link }}">Activate my account</a></p>
<p>The link works once and expires in 3 days. If you did not sign up, ignore this message.</p>
`,
};

export const PASSWORD_RESET_MAIL: MailTemplate = {
  subject: 'Reset your Data Catalogue password',
  text: `Hello {{ first_name }},

Someone asked to reset the password of your Data Catalogue account {{ username }}. Follow this link to choose a new one:

{{ link }}

The link works once and expires in 1 hour. If you did not ask for it, ignore this message: your password stays as it is.
`,
  html: `<p>Hello {{ first_name }},</p>
<p>Someone asked to reset the password of your Data Catalogue account <b>{{ username }}</b>. Follow this link to choose a new one:</p>
<p><a href="{{ link }}">Reset my password</a></p>
<p>The link works once and expires in 1 hour. If you did not ask for it, ignore this message: your password stays as it is.</p>
`,
};

export interface MailRecipient {
  email: string;
  firstName: string;
  username: string;
}

/** Identity's mails. Links start with PUBLIC_URL (the gateway's address as users reach it). */
@Injectable()
export class IdentityMailer {
  constructor(
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  publicUrl(): string {
    return (this.config.PUBLIC_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  activationLink(token: string): string {
    return `${this.publicUrl()}/api/register/activate/?token=${encodeURIComponent(token)}`;
  }

  resetLink(token: string, email: string): string {
    return `${this.publicUrl()}/#/passreset?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
  }

  /** The web app's login page, told whether an activation worked. */
  loginAfterActivation(activated: boolean): string {
    return `${this.publicUrl()}/#/login?activated=${activated ? 1 : 0}`;
  }

  sendActivation(to: MailRecipient, token: string): Promise<boolean> {
    return this.send(to, ACTIVATION_MAIL, this.activationLink(token));
  }

  sendPasswordReset(to: MailRecipient, token: string): Promise<boolean> {
    return this.send(to, PASSWORD_RESET_MAIL, this.resetLink(token, to.email));
  }

  /** A failed send is logged (never the link: it holds a token) and reported as false. */
  private async send(to: MailRecipient, template: MailTemplate, link: string): Promise<boolean> {
    const mail = renderMailTemplate(template, { first_name: to.firstName, username: to.username, link });
    try {
      await this.mailer.send({ to: to.email, ...mail });
      return true;
    } catch (error) {
      this.logger.error({ err: error, subject: mail.subject }, 'identity mail could not be sent');
      return false;
    }
  }
}
