import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { FileDownloadGranted } from '@dc/contracts';
import { ServiceEvents } from '@dc/platform';
import { AuditRepository } from './audit.repository';

/** Downloads under a grant reach the audit trail from the catalogue's file.download-granted (applied once). */
@Injectable()
export class AuditConsumer implements OnModuleInit {
  constructor(
    private readonly events: ServiceEvents,
    private readonly audit: AuditRepository,
  ) {}

  onModuleInit(): void {
    this.events.on([FileDownloadGranted.type], async (event, manager) => {
      const download = FileDownloadGranted.payload.parse(event.payload);
      await this.audit.append(manager, {
        id: randomUUID(),
        requestId: download.requestId,
        recordId: download.recordId,
        actorId: download.userId,
        action: 'download',
        details: { fileId: download.fileId, fileName: download.fileName },
        occurredAt: new Date(download.at),
      });
    });
  }
}
