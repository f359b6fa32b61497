import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { DEFAULT_MAIL_FROM, Mailer, MailMessage, prepareMail } from './mailer';

export interface FileMailerOptions {
  /** Directory the .eml files go to (DATA_DIR/mail in embedded mode); created when missing. */
  directory: string;
  defaultFrom?: string;
  /** Receives one line per message; defaults to Nest's Logger. */
  logger?: { log(message: string): void };
}

/**
 * Embedded mode's mailer: every message becomes an RFC 5322 `.eml` file (open it with any mail
 * client) and one log line naming recipient and subject, never the body, which may hold tokens.
 */
export class FileMailer extends Mailer {
  private readonly directory: string;
  private readonly defaultFrom: string;
  private readonly logger: { log(message: string): void };
  // nodemailer's stream transport builds the message (headers, encodings, multipart) without sending it.
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(options: FileMailerOptions) {
    super();
    this.directory = options.directory;
    this.defaultFrom = options.defaultFrom ?? DEFAULT_MAIL_FROM;
    this.logger = options.logger ?? new Logger(FileMailer.name);
  }

  async send(message: MailMessage): Promise<void> {
    const mail = prepareMail(message, this.defaultFrom);
    const info = await this.composer.sendMail(mail);
    await mkdir(this.directory, { recursive: true });
    // Timestamp first so a directory listing reads in sending order.
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
    const name = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
    // Temporary name (not .eml) then rename, so a reader never sees a half-written message.
    const temp = join(this.directory, `.${name}.tmp`);
    try {
      await writeFile(temp, info.message as Buffer, { flag: 'wx', flush: true });
      await rename(temp, join(this.directory, name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.logger.log(`mail written to=${JSON.stringify(mail.to)} subject=${JSON.stringify(mail.subject)} file=${name}`);
  }
}
