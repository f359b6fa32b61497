import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { MailRequested } from '@dc/contracts';
import { Mailer } from '@dc/mailer';
import { LOGGER, ServiceEvents } from '@dc/platform';
import { IdentityMailer } from './identity-mailer';

/**
 * Delivers the mail other services ask for (`mail.requested`), through the one Mailer port: either
 * their own subject and text, or the plain template (`template: 'plain'`) filled with their values,
 * its call to action under PUBLIC_URL. Delivery is at least once: a crash between sending and
 * recording the event may send it again.
 */
@Injectable()
export class MailRequestedConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly mailer: Mailer,
    private readonly identityMailer: IdentityMailer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.events.on([MailRequested.type], async (event) => {
      const request = MailRequested.payload.parse(event.payload);
      const mail = 'template' in request ? { to: request.to, ...this.identityMailer.renderPlain(request.values) } : request;
      await this.mailer.send(mail);
      this.logger.info({ eventId: event.id, subject: mail.subject, template: 'template' in request ? request.template : undefined }, 'requested mail sent');
    });
  }
}
