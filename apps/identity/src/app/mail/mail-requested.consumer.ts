import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { MailRequested } from '@dc/contracts';
import { Mailer } from '@dc/mailer';
import { LOGGER, ServiceEvents } from '@dc/platform';

/**
 * Delivers the mail other services ask for (`mail.requested`), through the one Mailer port.
 * Delivery is at least once: a crash between sending and recording the event may send it again.
 */
@Injectable()
export class MailRequestedConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly mailer: Mailer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.events.on([MailRequested.type], async (event) => {
      const mail = MailRequested.payload.parse(event.payload);
      await this.mailer.send(mail);
      this.logger.info({ eventId: event.id, subject: mail.subject }, 'requested mail sent');
    });
  }
}
