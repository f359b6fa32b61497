import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, AppConfig, HealthRegistry, LOGGER, ServiceRuntimeModule } from '@dc/platform';
import { SearchIndex } from '@dc/search-index';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { SEARCH_MIGRATIONS } from './migrations';
import { RecordVersionsRepository } from './projection/record-versions.repository';
import { RecordsConsumer } from './records/records.consumer';
import { RecordsListController } from './records/records-list.controller';
import { RecordsListService } from './records/records-list.service';
import { createSearchIndex } from './search-index.provider';
import { PostgresRequestStatuses, RequestStatuses } from './requests/request-statuses';
import { RequestsConsumer } from './requests/requests.consumer';

@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'search', migrations: SEARCH_MIGRATIONS })],
  controllers: [RecordsListController],
  providers: [
    DirectoryConsumer,
    DirectoryRepository,
    RecordsListService,
    RecordsConsumer,
    RecordVersionsRepository,
    RequestsConsumer,
    { provide: RequestStatuses, useClass: PostgresRequestStatuses },
    { provide: SearchIndex, inject: [APP_CONFIG, LOGGER], useFactory: (config: AppConfig, logger: Logger) => createSearchIndex(config, { logger }) },
  ],
})
export class SearchModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly index: SearchIndex,
    private readonly health: HealthRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit() {
    await this.index.init();
    this.health.register(`search-index-${this.config.SEARCH_DRIVER}`, async () => {
      // Not ready while the in-process index loads its memory (a search would wait for it): during a
      // rolling restart the load balancer sends searches to the replicas already loaded. Live meanwhile.
      const notReady = this.index.notReady();
      if (notReady) throw new Error(notReady);
      // A lookup by id is cheap at any index size (count() is not).
      await this.index.get('00000000-0000-0000-0000-000000000000');
    });
    // Background work of the index (the in-process one's snapshots and rebuilds) that failed and has
    // not succeeded since: down, with what failed, until it does (the failure is logged as well).
    this.health.register(
      'search-index-background',
      async () => {
        const failures = this.index.backgroundFailures();
        if (failures.length > 0) throw new Error(failures.map((failure) => `${failure.task} failed at ${failure.at}: ${failure.message}`).join('; '));
        // Searches are still answered (from memory and the store); only the snapshot or rebuild waits for its retry.
      },
      { failsReadiness: false },
    );
  }

  async onApplicationShutdown() {
    await this.index.close();
  }
}
