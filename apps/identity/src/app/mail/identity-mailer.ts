import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Mailer, PlainMail, renderPlainMail } from '@dc/mailer';
import { APP_CONFIG, AppConfig, LOGGER } from '@dc/platform';

export interface MailRecipient {
  email: string;
  firstName: string;
  username: string;
}

/** The web app's Password Reset page without a token: it asks for the address to send a link to. */
const PASSWORD_RESET_REQUEST_PATH = '/#/passreset';

/** The activation mail, in the plain layout every product mail shares. */
export function activationMail(to: MailRecipient, activationPath: string): PlainMail {
  return {
    subject: 'Activate your Data Catalogue account',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [
      `Thank you for signing up to the Data Catalogue as ${to.username}. Follow the link below to activate your account.`,
      'The link works once and expires in 3 days. If you did not sign up, ignore this message.',
    ],
    action: { label: 'Activate my account', path: activationPath },
  };
}

export function passwordResetMail(to: MailRecipient, resetPath: string): PlainMail {
  return {
    subject: 'Reset your Data Catalogue password',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [
      `Someone asked to reset the password of your Data Catalogue account ${to.username}. Follow the link below to choose a new one.`,
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this message: your password stays as it is.',
    ],
    action: { label: 'Reset my password', path: resetPath },
  };
}

/**
 * To the owner of an address someone tried to sign up with: no account was made, and how to get back
 * in. Nothing the person signing up typed goes in it (they may not own the address).
 */
export function signUpAttemptMail(to: MailRecipient): PlainMail {
  return {
    subject: 'Someone tried to sign up with your email address',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [
      `Someone tried to sign up to the Data Catalogue with this email address, which already belongs to your account ${to.username}. No new account was made.`,
      'If it was you, log in as that account; if you have forgotten its password, follow the link below to reset it. If it was not you, ignore this message: your account stays as it is.',
    ],
    action: { label: 'Reset my password', path: PASSWORD_RESET_REQUEST_PATH },
  };
}

/**
 * Identity's mails, and the plain template other services fill through mail.requested. Links
 * start with PUBLIC_URL (the gateway's address as users reach it).
 */
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
    return `${this.publicUrl()}${activationPath(token)}`;
  }

  resetLink(token: string, email: string): string {
    return `${this.publicUrl()}${resetPath(token, email)}`;
  }

  /** The web app's login page, told whether an activation worked. */
  loginAfterActivation(activated: boolean): string {
    return `${this.publicUrl()}/#/login?activated=${activated ? 1 : 0}`;
  }

  /** Subject, text and HTML of a mail in the plain layout, its action under PUBLIC_URL. */
  renderPlain(mail: PlainMail) {
    return renderPlainMail(mail, this.publicUrl());
  }

  sendActivation(to: MailRecipient, token: string): Promise<boolean> {
    return this.send(to, activationMail(to, activationPath(token)));
  }

  sendPasswordReset(to: MailRecipient, token: string): Promise<boolean> {
    return this.send(to, passwordResetMail(to, resetPath(token, to.email)));
  }

  sendSignUpAttempt(to: MailRecipient): Promise<boolean> {
    return this.send(to, signUpAttemptMail(to));
  }

  /** A failed send is logged (never the link: it holds a token) and reported as false. */
  private async send(to: MailRecipient, mail: PlainMail): Promise<boolean> {
    try {
      await this.mailer.send({ to: to.email, ...this.renderPlain(mail) });
      return true;
    } catch (error) {
      this.logger.error({ err: error, subject: mail.subject }, 'identity mail could not be sent');
      return false;
    }
  }
}

const activationPath = (token: string) => `/api/register/activate/?token=${encodeURIComponent(token)}`;
const resetPath = (token: string, email: string) => `/#/passreset?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
