import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestCreated, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RequestGrantsRepository } from '../access/request-grants.repository';

/** Keeps relations' projection of the requests service's request.* events (who holds a grant). */
@Injectable()
export class RequestGrantsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly grants: RequestGrantsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RequestCreated.type, RequestUpdated.type], async (event, manager) => {
      await this.grants.apply(manager, RequestUpdated.payload.parse(event.payload));
    });
  }
}
