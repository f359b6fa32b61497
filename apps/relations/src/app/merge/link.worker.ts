import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { createEvent, JobCompleted, JobProgressed, JobRequested, type JobRequestedPayload } from '@dc/contracts';
import { EventBus } from '@dc/messaging';
import { GENERIC_ERROR, LOGGER, runWithCorrelationId } from '@dc/platform';
import { RelationsService } from '../compare/relations.service';
import { RecordsRepository } from '../records/records.repository';
import { JobEventsRepository } from './job-events.repository';

/** The consumer group of link job workers: each LINK job goes to one of them. */
export const LINK_WORKERS_GROUP = 'relations.link-workers';
/** Row pairs a LINK job keeps, most probable first. */
export const LINK_JOB_PAIRS = 1000;

export const noLinksFound = (left: string, right: string) => `No links found between ${left} and ${right}`;
export const recordRemoved = (name: string) => `The record ${name} was removed from the product.`;

/**
 * A link job worker, in relations because row linkage reads relations' row-hash indexes: takes
 * LINK jobs from job.requested in its consumer group, links the two records' rows on their hashed
 * columns (the same linkage as link-rows) and reports job.completed with the row pairs. Access was
 * decided when the job was asked for; a record deleted since is reported as removed. Redelivered,
 * a job runs again and the registry keeps the first completion.
 */
@Injectable()
export class LinkWorker implements OnApplicationBootstrap {
  private readonly logger: Logger;

  constructor(
    private readonly bus: EventBus,
    private readonly records: RecordsRepository,
    private readonly relations: RelationsService,
    private readonly jobEvents: JobEventsRepository,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'link-worker' });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(LINK_WORKERS_GROUP, [JobRequested.type], async (event) => {
      const job = JobRequested.payload.parse(event.payload);
      if (job.type !== 'LINK') return;
      await runWithCorrelationId(event.correlationId ?? `job-${job.jobId}`, () => this.run(job));
    });
  }

  async run(job: JobRequestedPayload): Promise<void> {
    const report = (...events: ReturnType<typeof createEvent>[]) => this.jobEvents.publish(...events);
    const complete = (payload: Omit<Parameters<typeof createEvent<typeof JobCompleted.payload>>[2], 'jobId'>) =>
      report(createEvent(JobCompleted, job.jobId, { jobId: job.jobId, ...payload }));
    try {
      const [left, right] = await this.records
        .sketched([job.left.recordId, job.right.recordId])
        .then((found) => [job.left, job.right].map((side) => found.find((r) => r.record.id === side.recordId)));
      const gone = !left ? job.left : !right ? job.right : null;
      if (gone) return await complete({ status: 'failed', info: recordRemoved(gone.name) });
      await report(createEvent(JobProgressed, job.jobId, { jobId: job.jobId, current: 1, total: 2 }));
      const link = await this.relations.link({ left: left!, right: right!, downloads: [true, true] }, LINK_JOB_PAIRS, job.link?.pairs);
      const info =
        link.rows.length === 0
          ? noLinksFound(job.left.name, job.right.name)
          : `Linked ${link.rows.length} row pairs of ${job.left.name} and ${job.right.name}.`;
      await complete({ status: 'done', info, matches: link.rows, totRows: link.tot_rows });
      this.logger.info({ jobId: job.jobId, pairs: link.rows.length }, 'link job done');
    } catch (error) {
      this.logger.error({ err: error, jobId: job.jobId }, 'link job failed');
      await complete({ status: 'failed', info: GENERIC_ERROR });
    }
  }
}
