import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { createEvent, FileDownloadGranted, isUuid, permissionsOfGroups } from '@dc/contracts';
import { AuthUser, currentCorrelationId, DetailError, notFound } from '@dc/platform';
import { ObjectNotFoundError, ObjectStorage } from '@dc/storage';
import { LineageService } from '../lineage/lineage.service';
import type { CatalogueFile, CatalogueRecord } from '../record-model/record';
import { permissionsFor, type Viewer } from '../record-model/record-access';
import { type RecordRequest, RecordRequests } from '../record-model/record-requests';
import { DOWNLOAD_REFUSED, LINK_WITHDRAWN, NO_STORED_FILE } from '../record-model/records.errors';
import { type RecordStore, RecordsRepository } from '../record-store/records.repository';
import { type DownloadGrant, DownloadLinks } from './download-links';

/** Signed download links live this long (ARCHITECTURE section 6: short-lived). */
export const DOWNLOAD_LINK_SECONDS = 5 * 60;

/** Download links for those who may download a record's data, and the files streamed when a link is followed. */
@Injectable()
export class Downloads {
  constructor(
    private readonly records: RecordsRepository,
    private readonly storage: ObjectStorage,
    private readonly requests: RecordRequests,
    private readonly links: DownloadLinks,
    private readonly lineage: LineageService,
  ) {}

  /**
   * GET /api/records/{id}/download/: a link to the file, valid DOWNLOAD_LINK_SECONDS, for those who
   * may download; 403 for those who may only see the record, 404 for everyone else. The link names
   * the record, the file and the caller; following it checks their access again (openDownload).
   */
  async downloadLink(id: string, viewer: Viewer, fileId?: string) {
    if (!isUuid(id) || (fileId !== undefined && !isUuid(fileId))) throw notFound();
    const { file } = await this.records.read(async (store) => {
      const record = await store.findRecord(id);
      const permissions = record && permissionsFor(record, viewer, { approvedRequest: !!(await this.grantOf(record, viewer)) });
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.download) throw new DetailError(DOWNLOAD_REFUSED, 403);
      await this.refuseBlockedDownload(record);
      // The link is checked against the directory when followed: the caller must be known to it.
      if (viewer)
        await store.rememberCaller({
          id: viewer.id,
          username: viewer.username,
          organisationId: viewer.organisationId,
          clientType: viewer.clientType,
          groups: viewer.groups,
        });
      const files = await store.files(id);
      const chosen = fileId ? files.find((f) => f.id === fileId) : [...files].reverse().find((f) => f.storageKey);
      return { file: chosen };
    });
    if (!file?.storageKey) throw new DetailError(NO_STORED_FILE, 404);
    const url = this.links.url({ recordId: id, fileId: file.id, userId: viewer?.id ?? null }, DOWNLOAD_LINK_SECONDS);
    return { url, expires_in: DOWNLOAD_LINK_SECONDS, file: { id: file.id, name: file.name } };
  }

  /**
   * GET /api/files/download?token=...: the link's holder as the directory knows them now (their
   * organisation and groups today; refused once deleted, or deactivated after the link was made),
   * then the same rules as for making the link, against the record as it is now: 404 when the
   * record is gone or hidden from them, 403 when they may see it but no longer download it (a
   * revoked, closed or expired grant included). A download that only a grant allows is told to the
   * requests service for its audit trail.
   */
  async openDownload(grant: DownloadGrant): Promise<{ name: string; contentType: string; size: number; body: Readable }> {
    const { file, record, holder, request } = await this.records.read(async (store) => {
      const holder = grant.userId ? await this.holderOf(store, grant) : null;
      const record = await store.findRecord(grant.recordId);
      const request = record ? await this.grantOf(record, holder) : null;
      const permissions = record && permissionsFor(record, holder, { approvedRequest: !!request });
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.download) throw new DetailError(DOWNLOAD_REFUSED, 403);
      await this.refuseBlockedDownload(record);
      // Only a download that the grant alone allows is one "under a grant" (the audit trail's).
      const underGrant = request && !permissionsFor(record, holder).download ? request : null;
      return { file: (await store.files(record.id)).find((f) => f.id === grant.fileId), record, holder, request: underGrant };
    });
    if (!file?.storageKey) throw new DetailError(NO_STORED_FILE, 404);
    const stat = await this.storage.stat(file.storageKey);
    if (!stat) throw new DetailError(NO_STORED_FILE, 404);
    let body: Readable;
    try {
      body = await this.storage.get(file.storageKey);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new DetailError(NO_STORED_FILE, 404);
      throw error;
    }
    if (request && holder) await this.recordGrantedDownload(record, file, holder, request);
    return { name: file.name, contentType: stat.contentType ?? file.contentType, size: stat.size, body };
  }

  private async holderOf(store: RecordStore, grant: DownloadGrant): Promise<AuthUser> {
    const user = await store.directoryUser(grant.userId!);
    // Inactive and learnt after the link was made: deactivated since (before, it is the directory lagging behind an activation).
    if (!user || user.deleted || (!user.active && user.updatedAt > grant.issuedAt)) throw new DetailError(LINK_WITHDRAWN, 403);
    return {
      id: user.id,
      username: user.username,
      organisationId: user.organisationId,
      clientType: user.clientType,
      groups: user.groups,
      permissions: permissionsOfGroups(user.groups),
      passwordVersion: 0,
    };
  }

  /** 403 with the reason when the record was made from data whose terms no longer allow its download (lineage). */
  private async refuseBlockedDownload(record: CatalogueRecord): Promise<void> {
    const blocked = await this.lineage.downloadBlocked(record);
    if (blocked) throw new DetailError(blocked, 403);
  }

  /** The caller's request that grants download now (owners never request their own). */
  private async grantOf(record: CatalogueRecord, viewer: Viewer): Promise<RecordRequest | null> {
    if (!viewer || viewer.id === record.ownerId) return null;
    return this.requests.activeGrant(record.id, viewer.id);
  }

  /** Tells the requests service (its audit trail) of a download under a grant, through the outbox. */
  private async recordGrantedDownload(record: CatalogueRecord, file: CatalogueFile, holder: AuthUser, request: RecordRequest): Promise<void> {
    const event = createEvent(
      FileDownloadGranted,
      request.requestId,
      { recordId: record.id, fileId: file.id, fileName: file.name, userId: holder.id, requestId: request.requestId, at: new Date().toISOString() },
      { correlationId: currentCorrelationId() },
    );
    await this.records.transaction((store) => store.publish(event));
  }
}
