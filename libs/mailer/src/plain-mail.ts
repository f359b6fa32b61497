import { escapeHtml, MailTemplate } from './mail-template';

/**
 * The product's one mail layout, which identity renders for its own mails and for other services
 * (mail.requested with template "plain"): a greeting, paragraphs, an optional call to action and
 * a sign-off, as a text part and an HTML part.
 */
export interface PlainMail {
  subject: string;
  /** Defaults to DEFAULT_GREETING. */
  greeting?: string;
  paragraphs: string[];
  /** A button in HTML, a labelled link in text; the path is put after the product's public URL. */
  action?: { label: string; path: string };
  /** Defaults to DEFAULT_SIGN_OFF. */
  signOff?: string;
}

export const DEFAULT_GREETING = 'Hello,';
export const DEFAULT_SIGN_OFF = 'The Data Catalogue team';

export class InvalidMailActionError extends Error {
  constructor(path: string) {
    super(`A mail action must be a path of the product starting with a single "/" (got "${path}")`);
    this.name = 'InvalidMailActionError';
  }
}

/** `https://catalogue.example.com` + `/#/request?id=7`; only paths, so mail links always lead to the product. */
export function productLink(publicUrl: string, path: string): string {
  if (!/^\/(?!\/)/.test(path)) throw new InvalidMailActionError(path);
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}

/** Renders a PlainMail: every value is text, escaped in the HTML part (line breaks become <br>). */
export function renderPlainMail(mail: PlainMail, publicUrl: string): Required<MailTemplate> {
  const greeting = mail.greeting ?? DEFAULT_GREETING;
  const signOff = mail.signOff ?? DEFAULT_SIGN_OFF;
  const link = mail.action ? productLink(publicUrl, mail.action.path) : undefined;
  const text = [greeting, ...mail.paragraphs, ...(mail.action ? [`${mail.action.label}: ${link}`] : []), signOff].join('\n\n');
  const html = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');
  const htmlParts = [
    `<p>${html(greeting)}</p>`,
    ...mail.paragraphs.map((paragraph) => `<p>${html(paragraph)}</p>`),
    ...(mail.action
      ? [
          `<p><a href="${escapeHtml(link!)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#0d9488;color:#ffffff;text-decoration:none">${html(mail.action.label)}</a></p>`,
        ]
      : []),
    `<p>${html(signOff)}</p>`,
  ];
  return {
    subject: mail.subject,
    text: `${text}\n`,
    html: `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n${htmlParts.join('\n')}\n</body></html>\n`,
  };
}
