import { HttpException, Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { createEvent, type HarvestOutcome, JobCompleted, JobProgressed } from '@dc/contracts';
import { type AuthUser, BackgroundLoop, LOGGER } from '@dc/platform';
import { RecordCreation } from '../record-creation/record-creation.service';
import { updateRecordSchema } from '../records/dto/update-record.dto';
import { RecordsService } from '../records/records.service';
import { CatalogueInstance } from '../recovery/catalogue-instance';
import { PendingObjects } from '../recovery/pending-objects';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { recordFieldsOf, unkeepable } from './dataset-record';
import type { HarvestedDataset } from './dcat-reader';
import { type HarvestJob, HarvestsRepository } from './harvests.repository';

/** Other instances may die at any time (distributed mode): their imports are looked for this often. */
const TAKE_OVER_INTERVAL_MS = 60_000;
const MAX_FAILURES_LISTED = 100;

/** Why one dataset was not imported, in words for the Jobs page. */
class DatasetRefused extends Error {}

/** The message of an API error (field errors joined), or a generic one. */
function reasonOf(error: unknown): string {
  if (error instanceof DatasetRefused) return error.message;
  if (error instanceof HttpException) {
    const body = error.getResponse();
    if (typeof body === 'string') return body;
    const entries = Object.entries(body as Record<string, unknown>).map(([field, value]) =>
      field === 'detail' ? String(value) : `${field}: ${Array.isArray(value) ? value.join(' ') : String(value)}`,
    );
    return entries.join('; ') || error.message;
  }
  return 'The record could not be saved.';
}

/** What identifies a dataset across imports: its IRI; a blank node has none, so the source and title stand in. */
export const datasetKey = (job: Pick<HarvestJob, 'source'>, dataset: HarvestedDataset) =>
  dataset.iri.startsWith('_:') ? `${job.source} ${dataset.title}` : dataset.iri;

export function infoOf(outcome: HarvestOutcome, source: string): string {
  const failed = outcome.failed ? `, ${outcome.failed} failed` : '';
  return `Imported ${outcome.created + outcome.updated} of ${outcome.total} datasets from ${source}: ${outcome.created} created, ${outcome.updated} updated${failed}.`;
}

/**
 * Runs DCAT imports in the background, one dataset per transaction: the record is created (through
 * RecordCreation, as POST /api/records/ makes a metadata-only record) or updated (RecordsService,
 * as PUT does), remembered against the dataset's IRI, and the job's progress written and published
 * (job.progressed), all together; so a restart resumes after the last dataset done. An import whose
 * instance died is taken over at start-up and then periodically (recovery/catalogue-instance.ts).
 */
@Injectable()
export class HarvestRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  private readonly logger: Logger;
  /** Looks for imports that stopped instances left, at start-up and periodically. */
  private readonly takeOver: BackgroundLoop;

  constructor(
    private readonly harvests: HarvestsRepository,
    private readonly work: UnitOfWork,
    private readonly creation: RecordCreation,
    private readonly records: RecordsService,
    private readonly pending: PendingObjects,
    private readonly instance: CatalogueInstance,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'harvest-runner' });
    this.takeOver = new BackgroundLoop(
      () => this.claimAbandoned(),
      (error) => this.logger.error({ err: error }, 'looking for interrupted DCAT imports failed; trying again later'),
      TAKE_OVER_INTERVAL_MS,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    this.takeOver.start();
    await this.takeOver.idle();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.takeOver.stop();
    await Promise.allSettled(this.running.values());
  }

  /** Starts the written-down import in the background (outside the caller's unit of work). */
  start(jobId: string): void {
    if (this.running.has(jobId)) return;
    const run = this.work
      .detached(() => this.run(jobId))
      .catch((error: unknown) => this.logger.error({ err: error, jobId }, 'a DCAT import stopped; it is taken up again after a restart'))
      .finally(() => this.running.delete(jobId));
    this.running.set(jobId, run);
  }

  /** Resolves once no import runs here (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  /** Looks for abandoned imports now, and resolves once those found have started (tests). */
  async takeOverAbandoned(): Promise<void> {
    this.takeOver.nudge();
    await this.takeOver.idle();
  }

  /** Takes up the imports of instances that died (their lock is gone): the take-over loop's step. */
  private async claimAbandoned(): Promise<boolean> {
    for (const jobId of await this.harvests.claimAbandoned(this.instance.id)) {
      this.logger.warn({ jobId }, 'taking up a DCAT import that a stopped instance left running');
      this.start(jobId);
    }
    return false;
  }

  private async run(jobId: string): Promise<void> {
    const job = await this.harvests.findJob(jobId);
    if (!job || job.status !== 'running') return;
    let outcome = job.outcome;
    for (let index = job.done; index < job.datasets.length; index++) {
      // A stopping process leaves the rest to the instance that takes the job over.
      if (this.stopping) return;
      const dataset = job.datasets[index];
      const progressed = async (next: HarvestOutcome) => {
        await this.harvests.advance(jobId, index + 1, next);
        await this.work.publish(createEvent(JobProgressed, jobId, { jobId, current: index + 1, total: job.datasets.length }));
        return next;
      };
      try {
        outcome = await this.work.transaction(async () => {
          const kind = await this.importOne(job, dataset);
          return progressed({ ...outcome, [kind]: outcome[kind] + 1 });
        });
      } catch (error) {
        const reason = reasonOf(error);
        if (!(error instanceof DatasetRefused || error instanceof HttpException))
          this.logger.error({ err: error, jobId, dataset: dataset.iri }, 'importing a dataset failed');
        const failures = [...outcome.failures, { dataset: dataset.iri.startsWith('_:') ? dataset.title : dataset.iri, reason }].slice(0, MAX_FAILURES_LISTED);
        outcome = await this.work.transaction(() => progressed({ ...outcome, failed: outcome.failed + 1, failures }));
      }
    }
    const status = outcome.failed === outcome.total ? 'failed' : 'done';
    await this.work.transaction(async () => {
      await this.harvests.finish(jobId, status);
      await this.work.publish(createEvent(JobCompleted, jobId, { jobId, status, info: infoOf(outcome, job.source), harvest: outcome }));
    });
  }

  /** One dataset as a metadata-only record of the job's owner: created the first time, updated after. */
  private async importOne(job: HarvestJob, dataset: HarvestedDataset): Promise<'created' | 'updated'> {
    const problem = unkeepable(dataset);
    if (problem) throw new DatasetRefused(problem);
    const owner: AuthUser = job.owner;
    const key = datasetKey(job, dataset);
    await this.harvests.lockDataset(owner.organisationId, key);
    const fields = recordFieldsOf(dataset);
    const provenance = `Imported from the DCAT catalogue ${job.source}`.slice(0, 10_000);
    const existing = await this.harvests.recordOf(owner.organisationId, key);
    if (existing) {
      await this.records.update(existing, owner, updateRecordSchema.parse({ ...fields, provenance }));
      await this.harvests.remember(owner.organisationId, key, existing);
      return 'updated';
    }
    // No files: nothing is stored, so the upload has nothing to settle or clean up.
    const upload = this.pending.upload();
    const created = await this.creation.create(owner, { fields: { ...fields, provenance }, files: [] }, upload);
    const record = Array.isArray(created) ? created[0] : created;
    await this.harvests.remember(owner.organisationId, key, record.id);
    return 'created';
  }
}
