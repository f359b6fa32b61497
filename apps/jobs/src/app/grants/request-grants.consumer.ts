import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestCreated, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RequestGrantsRepository } from './request-grants.repository';

/**
 * Follows access requests (request.* events), as relations does: a LINK job's side read under a
 * grant shows its row pairs only while that very request grants (the registry's reads join them).
 */
@Injectable()
export class RequestGrantsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly grants: RequestGrantsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RequestCreated.type, RequestUpdated.type], (event, manager) => this.grants.apply(manager, RequestUpdated.payload.parse(event.payload)));
  }
}
