import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestCreated, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { PostgresRequestStatuses } from './request-statuses';

/** Keeps each requestor's request statuses from the requests service's events, for the cards. */
@Injectable()
export class RequestsConsumer implements OnModuleInit {
  constructor(private readonly events: ServiceEvents) {}

  onModuleInit(): void {
    this.events.on([RequestCreated.type, RequestUpdated.type], async (event, manager) => {
      await PostgresRequestStatuses.save(manager, RequestUpdated.payload.parse(event.payload));
    });
  }
}
