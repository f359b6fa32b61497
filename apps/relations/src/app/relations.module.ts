import { Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';
import { RecordAccess } from './access/record-access.service';
import { RequestGrantsRepository } from './access/request-grants.repository';
import { RelationsController } from './compare/relations.controller';
import { RelationsService } from './compare/relations.service';
import { DefinitionController } from './definitions/definition.controller';
import { DefinitionService } from './definitions/definition.service';
import { JobEventsRepository } from './merge/job-events.repository';
import { LinkWorker } from './merge/link.worker';
import { MergeJobsController } from './merge/merge-jobs.controller';
import { MergeJobsService } from './merge/merge-jobs.service';
import { MergePreviewService } from './merge/merge-preview.service';
import { MergeScanController } from './merge/merge-scan.controller';
import { MergeScanService } from './merge/merge-scan.service';
import { RelationsRequestGrants1764300000000 } from './migrations/1764300000000-relations-request-grants';
import { RelationsInitial1764100000000 } from './migrations/1764100000000-relations-initial';
import { RelationsRowIndexes1764310000000 } from './migrations/1764310000000-relations-row-indexes';
import { RelationsRowIndexBuilding1764330000000 } from './migrations/1764330000000-relations-row-index-building';
import { RelationsTopRelated1764320000000 } from './migrations/1764320000000-relations-top-related';
import { RelationsValueSight1764500000000 } from './migrations/1764500000000-relations-value-sight';
import { RecordsConsumer } from './projection/records.consumer';
import { RequestGrantsConsumer } from './projection/request-grants.consumer';
import { RecordsRepository } from './records/records.repository';
import { RelatedController } from './related/related.controller';
import { RelatedService } from './related/related.service';
import { TopRelatedRepository } from './related/top-related.repository';
import { TopRelatedWorker } from './related/top-related.worker';
import { RowIndexBuilder } from './rows/row-index.builder';
import { RowIndexRepository } from './rows/row-index.repository';
import { RowIndexes } from './rows/row-indexes';
import { RowReader } from './rows/row-reader';
import { Lexicon } from './wordnet/lexicon';
import { WordNetFiles } from './wordnet/wordnet-files';

/** Closes WordNet's data files with the module. */
@Injectable()
class WordNetLifecycle implements OnModuleDestroy {
  constructor(private readonly wordnet: WordNetFiles) {}
  onModuleDestroy(): void {
    this.wordnet.close();
  }
}

/**
 * The relations service: how two records relate (semantic, structural, statistical, joinability,
 * linkability), merge scan scoring, row links, header inference, word definitions, joinable-with and
 * top_related (kept per record and published as relation.top-related). Its projection comes from
 * record.*, file.sketched and request.* only.
 */
@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'relations',
      migrations: [
        RelationsInitial1764100000000,
        RelationsRequestGrants1764300000000,
        RelationsRowIndexes1764310000000,
        RelationsTopRelated1764320000000,
        RelationsRowIndexBuilding1764330000000,
        RelationsValueSight1764500000000,
      ],
    }),
  ],
  controllers: [RelationsController, MergeScanController, MergeJobsController, RelatedController, DefinitionController],
  providers: [
    RecordsRepository,
    RecordsConsumer,
    // Who holds a grant: relations' projection of the requests service's request.* events.
    RequestGrantsRepository,
    RequestGrantsConsumer,
    RecordAccess,
    RelationsService,
    MergeScanService,
    MergeJobsService,
    MergePreviewService,
    JobEventsRepository,
    LinkWorker,
    RelatedService,
    TopRelatedRepository,
    TopRelatedWorker,
    RowIndexRepository,
    RowIndexBuilder,
    RowIndexes,
    RowReader,
    { provide: WordNetFiles, useFactory: () => WordNetFiles.open() },
    { provide: Lexicon, inject: [WordNetFiles], useFactory: (wordnet: WordNetFiles) => new Lexicon(wordnet) },
    WordNetLifecycle,
    DefinitionService,
  ],
})
export class RelationsModule {}
