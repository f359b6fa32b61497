import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestCreated, RequestUpdated } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { GrantsRepository } from './grants.repository';

/** Keeps the grant projection from the requests service's events (idempotent, newest version wins). */
@Injectable()
export class GrantsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly work: UnitOfWork,
    private readonly grants: GrantsRepository,
  ) {}

  onModuleInit(): void {
    this.work.on(this.events, [RequestCreated.type, RequestUpdated.type], async (event) => {
      await this.grants.apply(RequestUpdated.payload.parse(event.payload));
    });
  }
}
