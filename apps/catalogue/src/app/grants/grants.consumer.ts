import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestCreated, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { GrantsRepository } from './grants.repository';

/** Keeps the grant projection from the requests service's events (idempotent, newest version wins). */
@Injectable()
export class GrantsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly grants: GrantsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([RequestCreated.type, RequestUpdated.type], async (event, manager) => {
      await this.grants.apply(manager, RequestUpdated.payload.parse(event.payload));
    });
  }
}
