import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, SecretCipher, ServiceRuntimeModule } from '@dc/platform';
import { AccessOptionsController } from './access-options/access-options.controller';
import { AwsCloudObjectStores } from './cloud/aws-cloud-object-stores';
import { CloudAccountsRepository } from './cloud/cloud-accounts.repository';
import { CloudObjectStores } from './cloud/cloud-object-stores';
import { CloudController } from './cloud/cloud.controller';
import { CloudService } from './cloud/cloud.service';
import { DcatController } from './dcat/dcat.controller';
import { DcatService } from './dcat/dcat.service';
import { ConnectionsController } from './connections/connections.controller';
import { ConnectionsRepository } from './connections/connections.repository';
import { ConnectionsService } from './connections/connections.service';
import { SqlDatabases } from './connections/sql-database';
import { DriverSqlDatabases } from './connections/sql-drivers';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { EarlyExtractions } from './extraction/early-extractions';
import { LibraryMetadataExtractor } from './extraction/library-metadata-extractor';
import { ExtractionRepository } from './extraction/extraction.repository';
import { ExtractionWorker } from './extraction/extraction.worker';
import { MergedRecordsConsumer } from './merges/merged-records.consumer';
import { MetadataExtractor } from './extraction/metadata-extractor';
import { DownloadLinks } from './downloads/download-links';
import { Downloads } from './downloads/downloads.service';
import { FilesController } from './files/files.controller';
import { CatalogueRecords1763800000000 } from './migrations/1763800000000-catalogue-records';
import { RecordPrivateColumns1764000000000 } from './migrations/1764000000000-record-private-columns';
import { CatalogueSharing1764300000000 } from './migrations/1764300000000-catalogue-sharing';
import { CatalogueTopRelated1764320000000 } from './migrations/1764320000000-catalogue-top-related';
import { CatalogueCrashRecovery1764400000000 } from './migrations/1764400000000-crash-recovery';
import { CatalogueRecordLineage1764510000000 } from './migrations/1764510000000-record-lineage';
import { CatalogueDirectoryEventOrder1764600000000 } from './migrations/1764600000000-directory-event-order';
import { LineageController } from './lineage/lineage.controller';
import { LineageRepository } from './lineage/lineage.repository';
import { LineageService } from './lineage/lineage.service';
import { Connections1764200000000 } from './migrations/1764200000000-connections';
import { CloudAccounts1764200000001 } from './migrations/1764200000001-cloud-accounts';
import { EndpointGuard } from './network/endpoint-guard';
import { IndexedRecords } from './record-creation/indexed-records';
import { GrantsConsumer } from './grants/grants.consumer';
import { GrantsRepository, ProjectedRecordRequests } from './grants/grants.repository';
import { CatalogueFetch } from './harvest/catalogue-fetch';
import { HarvestRunner } from './harvest/harvest-runner';
import { HarvestsController } from './harvest/harvests.controller';
import { HarvestsRepository } from './harvest/harvests.repository';
import { HarvestsService } from './harvest/harvests.service';
import { CatalogueHarvests1764800000000 } from './migrations/1764800000000-harvests';
import { GroupsController } from './groups/groups.controller';
import { GroupsRepository } from './groups/groups.repository';
import { GroupsService } from './groups/groups.service';
import { PoliciesController } from './policies/policies.controller';
import { PoliciesRepository } from './policies/policies.repository';
import { PoliciesService } from './policies/policies.service';
import { RecordRequests } from './record-model/record-requests';
import { RecordsController } from './records/records.controller';
import { RecordsRepublisher } from './reindex/records-republisher';
import { TopRelatedConsumer } from './related/top-related.consumer';
import { TopRelatedRepository } from './related/top-related.repository';
import { RecordCreation } from './record-creation/record-creation.service';
import { RecordsRepository } from './record-store/records.repository';
import { RecordsService } from './records/records.service';
import { CatalogueInstance } from './recovery/catalogue-instance';
import { OrphanSweeper } from './recovery/orphan-sweeper';
import { PendingObjects } from './recovery/pending-objects';
import { SourceDownloader } from './uploads/source-download';
import { VisibilitiesController } from './visibility/visibilities.controller';
import { UnitOfWork } from './unit-of-work/unit-of-work';
import { VisibilityService } from './visibility/visibility.service';

/** The catalogue service: records, files and their metadata extraction, visibility and access terms, policies, projects and request grants. */
@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'catalogue',
      migrations: [
        CatalogueRecords1763800000000,
        RecordPrivateColumns1764000000000,
        Connections1764200000000,
        CloudAccounts1764200000001,
        CatalogueSharing1764300000000,
        CatalogueTopRelated1764320000000,
        CatalogueCrashRecovery1764400000000,
        CatalogueRecordLineage1764510000000,
        CatalogueDirectoryEventOrder1764600000000,
        CatalogueHarvests1764800000000,
      ],
    }),
  ],
  controllers: [
    RecordsController,
    FilesController,
    AccessOptionsController,
    VisibilitiesController,
    PoliciesController,
    GroupsController,
    ConnectionsController,
    CloudController,
    LineageController,
    HarvestsController,
    DcatController,
  ],
  providers: [
    UnitOfWork,
    DirectoryConsumer,
    DirectoryRepository,
    RecordsRepository,
    RecordsService,
    RecordCreation,
    Downloads,
    SourceDownloader,
    RecordsRepublisher,
    VisibilityService,
    DownloadLinks,
    TopRelatedRepository,
    TopRelatedConsumer,
    CatalogueInstance,
    PendingObjects,
    OrphanSweeper,
    ExtractionRepository,
    ExtractionWorker,
    EarlyExtractions,
    MergedRecordsConsumer,
    LineageRepository,
    LineageService,
    PoliciesRepository,
    PoliciesService,
    GroupsRepository,
    GroupsService,
    GrantsRepository,
    GrantsConsumer,
    IndexedRecords,
    EndpointGuard,
    ConnectionsRepository,
    ConnectionsService,
    { provide: SqlDatabases, useClass: DriverSqlDatabases },
    CloudAccountsRepository,
    CloudService,
    // DCAT imports (harvest/).
    CatalogueFetch,
    HarvestsRepository,
    HarvestsService,
    HarvestRunner,
    DcatService,
    { provide: CloudObjectStores, useClass: AwsCloudObjectStores },
    // Who holds a request: the projection of the requests service's request.* events.
    { provide: RecordRequests, useClass: ProjectedRecordRequests },
    { provide: MetadataExtractor, useClass: LibraryMetadataExtractor },
    { provide: SecretCipher, inject: [APP_CONFIG], useFactory: (config: AppConfig) => SecretCipher.fromBase64Key(config.ENCRYPTION_KEY) },
  ],
})
export class CatalogueModule {}
