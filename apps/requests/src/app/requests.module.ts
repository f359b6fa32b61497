import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@dc/platform';
import { AuditConsumer } from './audit/audit.consumer';
import { AuditRepository } from './audit/audit.repository';
import { DirectoryConsumer } from './directory/directory.consumer';
import { DirectoryRepository } from './directory/directory.repository';
import { MessagesController } from './messages/messages.controller';
import { MessagesRepository } from './requests/messages.repository';
import { MessagesService } from './messages/messages.service';
import { RequestsInitial1764300000000 } from './migrations/1764300000000-requests-initial';
import { RequestsOwnerOnlyRecords1764510000000 } from './migrations/1764510000000-requests-owner-only-records';
import { RequestsDirectoryUpdatedAt1767312000000 } from './migrations/1767312000000-requests-directory-updated-at';
import { RequestsMessageReads1767400000000 } from './migrations/1767400000000-requests-message-reads';
import { RecordsConsumer } from './records/records.consumer';
import { RecordsRepository } from './records/records.repository';
import { RequestsController } from './requests/requests.controller';
import { RequestsRepository } from './requests/requests.repository';
import { RequestsService } from './requests/requests.service';

/**
 * The requests service: access requests, their policy answers, message threads and the audit trail;
 * projections of records, policies, users and organisations fed by the others' events.
 */
@Module({
  imports: [
    ServiceRuntimeModule.forService({
      name: 'requests',
      migrations: [
        RequestsInitial1764300000000,
        RequestsOwnerOnlyRecords1764510000000,
        RequestsDirectoryUpdatedAt1767312000000,
        RequestsMessageReads1767400000000,
      ],
    }),
  ],
  controllers: [RequestsController, MessagesController],
  providers: [
    DirectoryConsumer,
    DirectoryRepository,
    RecordsConsumer,
    RecordsRepository,
    RequestsRepository,
    RequestsService,
    MessagesRepository,
    MessagesService,
    AuditRepository,
    AuditConsumer,
  ],
})
export class RequestsModule {}
