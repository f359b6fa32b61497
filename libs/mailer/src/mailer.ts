export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Defaults to the adapter's configured sender (MAIL_FROM). */
  from?: string;
}

/** Port for outgoing mail. Used as its own Nest injection token. */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<void>;
}

export const DEFAULT_MAIL_FROM = 'Data Catalogue <no-reply@localhost>';

export class InvalidMailMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMailMessageError';
  }
}

/** The message as handed to nodemailer, sender filled in. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Checks a message before any adapter sends it. Line breaks in address or subject fields would let
 * a caller smuggle extra headers, so they are refused rather than silently cleaned.
 */
export function prepareMail(message: MailMessage, defaultFrom: string): OutgoingMail {
  const from = message.from ?? defaultFrom;
  for (const [field, value] of [
    ['to', message.to],
    ['from', from],
    ['subject', message.subject],
  ] as const) {
    if (typeof value !== 'string') throw new InvalidMailMessageError(`${field} must be a string`);
    if (/[\r\n]/.test(value)) throw new InvalidMailMessageError(`${field} must not contain line breaks`);
  }
  if (!message.to.trim()) throw new InvalidMailMessageError('to must not be empty');
  if (typeof message.text !== 'string') throw new InvalidMailMessageError('text must be a string');
  const mail: OutgoingMail = { from, to: message.to, subject: message.subject, text: message.text };
  if (message.html !== undefined) mail.html = message.html;
  return mail;
}
