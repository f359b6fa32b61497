import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ServiceRuntimeModule } from '@dc/platform';
import { AccessOptionsController } from './access-options/access-options.controller';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { columnHashKey, LibraryMetadataExtractor } from './extraction/library-metadata-extractor';
import { ExtractionRepository } from './extraction/extraction.repository';
import { ExtractionWorker } from './extraction/extraction.worker';
import { MetadataExtractor } from './extraction/metadata-extractor';
import { DownloadLinks } from './files/download-links';
import { FilesController } from './files/files.controller';
import { CatalogueRecords1763800000000 } from './migrations/1763800000000-catalogue-records';
import { RecordPrivateColumns1764000000000 } from './migrations/1764000000000-record-private-columns';
import { NoRecordRequests, RecordRequests } from './records/record-requests';
import { RecordsController } from './records/records.controller';
import { RecordsRepublisher } from './reindex/records-republisher';
import { RecordsRepository } from './records/records.repository';
import { RecordsService } from './records/records.service';
import { SourceDownloader } from './records/source-download';
import { VisibilitiesController } from './visibility/visibilities.controller';
import { VisibilityService } from './visibility/visibility.service';

/** The catalogue service: records, files and their metadata extraction, visibility and access terms. */
@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'catalogue', migrations: [CatalogueRecords1763800000000, RecordPrivateColumns1764000000000] })],
  controllers: [RecordsController, FilesController, AccessOptionsController, VisibilitiesController],
  providers: [
    DirectoryConsumer,
    DirectoryRepository,
    RecordsRepository,
    RecordsService,
    SourceDownloader,
    RecordsRepublisher,
    VisibilityService,
    DownloadLinks,
    ExtractionRepository,
    ExtractionWorker,
    // The requests service comes later; its projection will replace this adapter.
    { provide: RecordRequests, useClass: NoRecordRequests },
    { provide: MetadataExtractor, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new LibraryMetadataExtractor(columnHashKey(config)) },
  ],
})
export class CatalogueModule {}
