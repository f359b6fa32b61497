import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, HealthRegistry, ServiceRuntimeModule } from '@dc/platform';
import { ElasticsearchSearchIndex, PostgresSearchIndex, SearchIndex } from '@dc/search-index';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { SearchInitial1763780000000 } from './migrations/1763780000000-search-initial';
import { RecordsConsumer } from './records/records.consumer';
import { RecordsListController } from './records/records-list.controller';
import { RecordsListService } from './records/records-list.service';

/** The index adapter from SEARCH_DRIVER; the PostgreSQL one lives in the search service's own schema. */
function createSearchIndex(config: AppConfig): SearchIndex {
  return config.SEARCH_DRIVER === 'elasticsearch'
    ? new ElasticsearchSearchIndex({ node: config.ELASTICSEARCH_URL! })
    : new PostgresSearchIndex({ connectionString: config.DATABASE_URL!, schema: 'search' });
}

@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'search', migrations: [SearchInitial1763780000000] })],
  controllers: [RecordsListController],
  providers: [
    DirectoryConsumer,
    DirectoryRepository,
    RecordsListService,
    RecordsConsumer,
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
