import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobCompleted, JobProgressed, JobRequested, JobStarted, RecordDeleted } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { RequestGrantsRepository } from '../grants/request-grants.repository';
import { DerivedStorageRepository } from '../worker/derived-storage.repository';
import { JobsRepository } from './jobs.repository';

/**
 * Keeps the registry from job.* events (whoever runs the jobs), and notes deleted records (a
 * deleted merged record no longer counts against its owner's quota). Idempotent.
 */
@Injectable()
export class JobsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly jobs: JobsRepository,
    private readonly derived: DerivedStorageRepository,
    private readonly grants: RequestGrantsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([JobRequested.type], async (event, manager) => {
      const job = JobRequested.payload.parse(event.payload);
      await this.jobs.register(manager, job, event.occurredAt);
      await this.grants.vouchFor(manager, job, event.occurredAt);
    });
    this.events.on([JobStarted.type], (event, manager) => this.jobs.registerStarted(manager, JobStarted.payload.parse(event.payload), event.occurredAt));
    this.events.on([JobProgressed.type], (event, manager) => this.jobs.progress(manager, JobProgressed.payload.parse(event.payload)));
    this.events.on([JobCompleted.type], (event, manager) => this.jobs.complete(manager, JobCompleted.payload.parse(event.payload), event.occurredAt));
    this.events.on([RecordDeleted.type], async (event, manager) => {
      const { recordId } = RecordDeleted.payload.parse(event.payload);
      await this.jobs.recordRemoved(manager, recordId, event.occurredAt);
      await this.derived.forget(manager, recordId);
    });
  }
}
