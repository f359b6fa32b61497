import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';
import { JobsRegistry1764400000000 } from './migrations/1764400000000-jobs-registry';
import { RequestGrantsConsumer } from './grants/request-grants.consumer';
import { RequestGrantsRepository } from './grants/request-grants.repository';
import { DerivedStorage1764500000000 } from './migrations/1764500000000-derived-storage';
import { LinkGrants1764520000000 } from './migrations/1764520000000-link-grants';
import { HarvestJobs1764800000000 } from './migrations/1764800000000-harvest-jobs';
import { JobsConsumer } from './registry/jobs.consumer';
import { JobsController } from './registry/jobs.controller';
import { JobsRepository } from './registry/jobs.repository';
import { JobsService } from './registry/jobs.service';
import { DerivedStorageRepository } from './worker/derived-storage.repository';
import { DuckdbMergeEngine } from './worker/duckdb-merge-engine';
import { JobRunsRepository } from './worker/job-runs.repository';
import { MergeEngine } from './worker/merge-engine';
import { MERGE_ENGINE_SETTINGS } from './worker/merge-engine-settings';
import { MergeWorker } from './worker/merge.worker';

/**
 * The jobs service: the job registry the Jobs page reads (kept from job.* events) under
 * /api/tasks, with its own copy of access requests (request.* events) for LINK results made under
 * a grant, and the merge job workers (one consumer group, any number of processes).
 */
@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'jobs',
      migrations: [JobsRegistry1764400000000, DerivedStorage1764500000000, LinkGrants1764520000000, HarvestJobs1764800000000],
    }),
  ],
  controllers: [JobsController],
  providers: [
    JobsRepository,
    JobsConsumer,
    JobsService,
    RequestGrantsRepository,
    RequestGrantsConsumer,
    JobRunsRepository,
    DerivedStorageRepository,
    { provide: MergeEngine, useFactory: () => new DuckdbMergeEngine(MERGE_ENGINE_SETTINGS) },
    MergeWorker,
  ],
})
export class JobsModule {}
