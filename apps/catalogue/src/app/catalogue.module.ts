import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';
import { AccessOptionsController } from './access-options/access-options.controller';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { LibraryMetadataExtractor } from './extraction/library-metadata-extractor';
import { ExtractionRepository } from './extraction/extraction.repository';
import { ExtractionWorker } from './extraction/extraction.worker';
import { MetadataExtractor } from './extraction/metadata-extractor';
import { DownloadLinks } from './files/download-links';
import { FilesController } from './files/files.controller';
import { CatalogueRecords1763800000000 } from './migrations/1763800000000-catalogue-records';
import { RecordsController } from './records/records.controller';
import { RecordsRepublisher } from './reindex/records-republisher';
import { RecordsRepository } from './records/records.repository';
import { RecordsService } from './records/records.service';
import { VisibilitiesController } from './visibility/visibilities.controller';
import { VisibilityService } from './visibility/visibility.service';

/** The catalogue service: records, files and their metadata extraction, visibility and access terms. */
@Module({
  imports: [ServiceRuntimeModule.forService({ name: 'catalogue', migrations: [CatalogueRecords1763800000000] })],
  controllers: [RecordsController, FilesController, AccessOptionsController, VisibilitiesController],
  providers: [
    DirectoryConsumer,
    DirectoryRepository,
    RecordsRepository,
    RecordsService,
    RecordsRepublisher,
    VisibilityService,
    DownloadLinks,
    ExtractionRepository,
    ExtractionWorker,
    { provide: MetadataExtractor, useClass: LibraryMetadataExtractor },
  ],
})
export class CatalogueModule {}
