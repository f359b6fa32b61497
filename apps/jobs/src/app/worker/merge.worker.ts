import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import {
  createEvent,
  JobCompleted,
  JobProgressed,
  JobRequested,
  type JobRequestedPayload,
  MergeCompleted,
  mergePairsText,
  mergeResultName,
} from '@dc/contracts';
import { APP_CONFIG, type AppConfig, GENERIC_ERROR, LOGGER, runWithCorrelationId } from '@dc/platform';
import { ObjectNotFoundError, ObjectStorage } from '@dc/storage';
import { derivedUuid, EventBus } from '@dc/messaging';
import { DerivedStorageRepository } from './derived-storage.repository';
import { JobRunsRepository } from './job-runs.repository';
import { MergeEngine, MergeLimitExceeded, type MergeLimits } from './merge-engine';
import { mergeBounds, quotaMessage, stopMessage } from './merge-limits';

export const NO_MATCHING_VALUES = 'Some merges had no matching values for the selected fields.';
export const SOURCE_REMOVED = 'A record of this job was removed from the product.';
/** The consumer group of merge job workers: each job goes to one of them. */
export const MERGE_WORKERS_GROUP = 'jobs.merge-workers';
/** Where a finished merge's CSV is stored; the same key when a job runs again. */
export const mergedObjectKey = (jobId: string) => `jobs/merges/${jobId}.csv`;

/** Steps a merge job reports: left fetched, right fetched, merged, stored, registered. */
const STEPS = 5;

export interface MergeWorkerSettings {
  /** Where jobs keep their downloaded sources, spill files and result until it is stored. */
  workDir: string;
}
export const MERGE_WORKER_SETTINGS = Symbol('MERGE_WORKER_SETTINGS');

/**
 * A merge job worker: takes MERGE jobs from job.requested in its consumer group (more processes,
 * more jobs at once), streams both sources from object storage to disk, merges them with the
 * MergeEngine and streams the result into object storage under a key of the job's own, then
 * publishes job.completed and merge.completed (the catalogue makes the record) in one transaction
 * with the job's finished mark. The result is bounded while it is written (MERGE_MAX_ROWS,
 * MERGE_MAX_BYTES, what is left of the owner's DERIVED_STORAGE_QUOTA_BYTES): past a bound the merge
 * stops, keeps nothing and fails with a message naming it. Killed mid-way, the job is delivered
 * again (Kafka: its offset was not committed; embedded: the outbox row was not marked published)
 * and runs again from the start:
 * object storage only ever shows a complete object, and the result record is named by the job.
 */
@Injectable()
export class MergeWorker implements OnApplicationBootstrap {
  private readonly logger: Logger;
  private readonly settings: MergeWorkerSettings;

  constructor(
    private readonly bus: EventBus,
    private readonly storage: ObjectStorage,
    private readonly engine: MergeEngine,
    private readonly runs: JobRunsRepository,
    private readonly derived: DerivedStorageRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    @Optional() @Inject(MERGE_WORKER_SETTINGS) settings?: Partial<MergeWorkerSettings>,
  ) {
    this.logger = logger.child({ component: 'merge-worker' });
    // The system's temporary directory: the one writable place of a service container (k8s/base/jobs.yaml).
    this.settings = { workDir: path.join(os.tmpdir(), 'dc-jobs-work'), ...settings };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(MERGE_WORKERS_GROUP, [JobRequested.type], async (event) => {
      const job = JobRequested.payload.parse(event.payload);
      if (job.type !== 'MERGE' || !job.merge) return;
      await runWithCorrelationId(event.correlationId ?? `job-${job.jobId}`, () => this.run(job));
    });
  }

  async run(job: JobRequestedPayload): Promise<void> {
    const log = this.logger.child({ jobId: job.jobId });
    if ((await this.runs.isFinished(job.jobId)) || (await this.runs.isDeleted(job.jobId))) {
      log.info('job already finished or deleted; not run again');
      return;
    }
    log.info({ left: job.left.recordId, right: job.right.recordId, mergeType: job.merge!.mergeType }, 'merge job started');
    // Bounds on the result (docs/jobs.md, "Limits"); an owner whose quota is full gets no merge at all.
    const bounds = mergeBounds(this.config, await this.derived.usedBy(job.owner.userId));
    if (bounds.limits.maxBytes === 0) return await this.finish(job, 'failed', quotaMessage(bounds.quotaBytes, bounds.usedBytes), null);
    const dir = path.join(this.settings.workDir, job.jobId);
    // A run killed before leaves its files behind: start clean.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    try {
      const outcome = await this.merge(job, dir, bounds.limits);
      if (outcome.rows === 0) return await this.finish(job, 'failed', NO_MATCHING_VALUES, null);
      await this.progress(job, 4);
      const stored = await this.storage.put(mergedObjectKey(job.jobId), createReadStream(outcome.path), {
        contentType: 'text/csv',
        size: (await stat(outcome.path)).size,
      });
      const recordId = derivedUuid(job.jobId, 'record');
      const names = `${job.left.name} and ${job.right.name}`;
      const how = mergePairsText(job.merge!.pairs);
      // Named by what was merged and how, so two merges of the same records tell apart.
      const name = mergeResultName(job.left.name, job.right.name, job.merge!.mergeType, job.merge!.pairs);
      const merged = createEvent(
        MergeCompleted,
        job.jobId,
        {
          jobId: job.jobId,
          recordId,
          owner: job.owner,
          name,
          description: `${job.merge!.mergeType === 'horizontal' ? 'Horizontal' : 'Vertical'} merge of ${names} on ${how}: ${outcome.rows} rows.`,
          provenance: `Merged by job ${job.jobId} from records ${job.left.name} (${job.left.recordId}, file ${job.left.fileName}) and ${job.right.name} (${job.right.recordId}, file ${job.right.fileName}); ${job.merge!.mergeType} merge on ${how}.`,
          fileName: `merge-${job.jobId.slice(0, 8)}.csv`,
          storageKey: stored.key,
          size: stored.size,
          checksum: stored.checksum,
          rows: outcome.rows,
          // The terms each side was read under go with the result (lineage).
          sources: [job.left, job.right].map((side) => ({ recordId: side.recordId, name: side.name, terms: side.terms, requestId: side.requestId })),
        },
        { id: derivedUuid(job.jobId, MergeCompleted.type) },
      );
      const charge = { ownerId: job.owner.userId, jobId: job.jobId, recordId, bytes: stored.size, quotaBytes: bounds.quotaBytes };
      const done = this.completion(job, 'done', `Merged ${outcome.rows} rows of ${names} into a new record.`, recordId);
      if (!(await this.runs.finishAdmitted(job.jobId, (manager) => this.derived.charge(manager, charge), merged, done))) {
        // Another merge of the owner's finished first and took the room: this result is not kept.
        await this.storage.delete(stored.key);
        return await this.finish(job, 'failed', quotaMessage(bounds.quotaBytes, await this.derived.usedBy(job.owner.userId)), null);
      }
      log.info({ rows: outcome.rows, bytes: stored.size, recordId }, 'merge job done');
    } catch (error) {
      if (error instanceof MergeLimitExceeded) {
        log.warn({ limit: error.limit, produced: error.produced, limits: bounds.limits }, 'merge result passed its limit; stopped');
        return await this.finish(job, 'failed', stopMessage(error, bounds), null);
      }
      if (error instanceof ObjectNotFoundError) return await this.finish(job, 'failed', SOURCE_REMOVED, null);
      log.error({ err: error }, 'merge job failed');
      await this.finish(job, 'failed', GENERIC_ERROR, null);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async merge(job: JobRequestedPayload, dir: string, limits: MergeLimits): Promise<{ rows: number; path: string }> {
    const leftPath = path.join(dir, 'left.csv');
    const rightPath = path.join(dir, 'right.csv');
    await pipeline(await this.storage.get(job.left.storageKey), createWriteStream(leftPath));
    await this.progress(job, 1);
    await pipeline(await this.storage.get(job.right.storageKey), createWriteStream(rightPath));
    await this.progress(job, 2);
    const outputPath = path.join(dir, 'merged.csv');
    const { rows } = await this.engine.merge({
      left: { path: leftPath, name: job.left.name },
      right: { path: rightPath, name: job.right.name },
      mergeType: job.merge!.mergeType,
      pairs: job.merge!.pairs,
      outputPath,
      limits,
    });
    await this.progress(job, 3);
    return { rows, path: outputPath };
  }

  private progress(job: JobRequestedPayload, current: number): Promise<void> {
    return this.runs.report(createEvent(JobProgressed, job.jobId, { jobId: job.jobId, current, total: STEPS }));
  }

  private finish(
    job: JobRequestedPayload,
    status: 'done' | 'failed',
    info: string,
    resultRecordId: string | null,
    ...more: ReturnType<typeof createEvent>[]
  ): Promise<void> {
    return this.runs.finish(job.jobId, ...more, this.completion(job, status, info, resultRecordId));
  }

  private completion(job: JobRequestedPayload, status: 'done' | 'failed', info: string, resultRecordId: string | null) {
    return createEvent(JobCompleted, job.jobId, { jobId: job.jobId, status, info, resultRecordId }, { id: derivedUuid(job.jobId, JobCompleted.type) });
  }
}
