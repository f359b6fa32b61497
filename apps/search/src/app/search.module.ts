import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, HealthRegistry, ServiceRuntimeModule } from '@dc/platform';
import { SearchIndex } from '@dc/search-index';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { SEARCH_MIGRATIONS } from './migrations';
import { RecordVersionsRepository } from './records/record-versions.repository';
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
    { provide: SearchIndex, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createSearchIndex(config) },
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
      // A lookup by id is cheap at any index size (count() is not).
      await this.index.get('00000000-0000-0000-0000-000000000000');
    });
  }

  async onApplicationShutdown() {
    await this.index.close();
  }
}
