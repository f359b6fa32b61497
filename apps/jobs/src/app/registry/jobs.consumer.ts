import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobCompleted, JobProgressed, JobRequested, RecordDeleted } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { JobsRepository } from './jobs.repository';

/** Keeps the registry from job.* events (whoever runs the jobs), and notes deleted records. Idempotent. */
@Injectable()
export class JobsConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly jobs: JobsRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([JobRequested.type], (event, manager) => this.jobs.register(manager, JobRequested.payload.parse(event.payload), event.occurredAt));
    this.events.on([JobProgressed.type], (event, manager) => this.jobs.progress(manager, JobProgressed.payload.parse(event.payload)));
    this.events.on([JobCompleted.type], (event, manager) => this.jobs.complete(manager, JobCompleted.payload.parse(event.payload), event.occurredAt));
    this.events.on([RecordDeleted.type], (event, manager) => this.jobs.recordRemoved(manager, RecordDeleted.payload.parse(event.payload).recordId, event.occurredAt));
  }
}
