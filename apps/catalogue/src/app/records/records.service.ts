import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { createEvent, FileDownloadGranted, permissionsOfGroups, RecordCreated, RecordDeleted, RecordUpdated } from '@dc/contracts';
import {
  APP_CONFIG,
  AppConfig,
  AuthUser,
  currentCorrelationId,
  DetailError,
  FieldErrors,
  FieldValidationError,
  LOGGER,
  SecretCipher,
  toFieldErrors,
} from '@dc/platform';
import type { Readable } from 'node:stream';
import { ObjectNotFoundError, ObjectStorage } from '@dc/storage';
import type { NamedId } from '../directory/directory.repository';
import { ExtractionWorker } from '../extraction/extraction.worker';
import { DownloadGrant, DownloadLinks } from '../files/download-links';
import { GroupsRepository } from '../groups/groups.repository';
import { GroupsService } from '../groups/groups.service';
import { LineageService } from '../lineage/lineage.service';
import { PoliciesRepository } from '../policies/policies.repository';
import { invalidPk } from '../sharing-rules';
import { topRelatedFor, type TopRelatedView } from '../related/top-related';
import { TopRelatedRepository } from '../related/top-related.repository';
import { PendingObjects, type PendingUpload } from '../recovery/pending-objects';
import { extensionOf, ReceivedForm, StoredUpload } from './busboy-multipart';
import { createRecordSchema } from './dto/create-record.dto';
import { isUuid, nameField } from './dto/record-fields';
import { sealLinkageKey } from './linkage-key';
import { UpdateRecordDto } from './dto/update-record.dto';
import type { CatalogueFile, CatalogueRecord } from './record';
import { permissionsFor, Viewer } from './record-access';
import { RecordRequest, RecordRequests, ShownRequestStatus } from './record-requests';
import { recordSnapshot } from './record-events';
import { fileView, recordView, RecordView, type RecordViewExtras, visibilityView } from './record-view';
import {
  BASIC_POLICY_REFUSED,
  BASIC_VISIBILITY_FIXED,
  DOWNLOAD_REFUSED,
  forbidden,
  LINK_WITHDRAWN,
  NAME_REQUIRED,
  NO_STORED_FILE,
  notFound,
  SOURCE_OR_FILES,
  SOURCE_REQUIRED,
} from './records.errors';
import { NewRecord, RecordStore, RecordsRepository } from './records.repository';
import { SourceDownloader, SourceDownloadError } from './source-download';

/** Signed download links live this long (ARCHITECTURE section 6: short-lived). */
export const DOWNLOAD_LINK_SECONDS = 5 * 60;

export const objectKeyFor = (fileId: string) => `catalogue/files/${fileId}`;

/** Where the client asks for a signed link (the record's download_url). */
export const downloadPathFor = (recordId: string) => `/api/records/${recordId}/download/`;

/** The owner's client type: the caller's own when they own the record, else the directory's. */
export function ownerClientTypeOf(record: CatalogueRecord, viewer: Viewer) {
  return viewer && viewer.id === record.ownerId ? viewer.clientType : record.ownerClientType;
}

/** Record type from its files: their extensions ("csv", "csv, xlsx"), or "metadata" without files. */
function typeOf(files: StoredUpload[]): string {
  if (files.length === 0) return 'metadata';
  const kinds = [...new Set(files.map((f) => extensionOf(f.fileName) || f.contentType))];
  return kinds.join(', ').slice(0, 100);
}

const editableFields = (r: CatalogueRecord) =>
  JSON.stringify([
    r.name,
    r.altName,
    r.description,
    r.provenance,
    r.source,
    r.recordFields,
    r.access,
    r.accessFee,
    r.currency,
    r.policyId,
    r.groupIds,
    r.visibility,
    r.sharedUserIds,
    r.sharedOrganisationIds,
  ]);

/** Records: creation from uploads, details, edit, delete, download links. Rules here; I/O in the repository. */
@Injectable()
export class RecordsService {
  private readonly logger: Logger;

  constructor(
    private readonly records: RecordsRepository,
    private readonly storage: ObjectStorage,
    private readonly worker: ExtractionWorker,
    private readonly requests: RecordRequests,
    private readonly sources: SourceDownloader,
    private readonly policies: PoliciesRepository,
    private readonly groups: GroupsRepository,
    private readonly groupsService: GroupsService,
    private readonly cipher: SecretCipher,
    private readonly links: DownloadLinks,
    private readonly related: TopRelatedRepository,
    private readonly pending: PendingObjects,
    private readonly lineage: LineageService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'records' });
  }

  get maxUploadBytes(): number {
    return this.config.MAX_UPLOAD_BYTES;
  }

  /**
   * POST /api/records/: one record per file (saveSeparately, the default), one record with every
   * file, or a metadata-only record; with extractFromURL, the file at the source URL is fetched and
   * indexed like an upload. The files are already stored (the fetched one is added to form.files),
   * each registered with the upload, which deletes them again unless the records took them
   * (PendingUpload.end): bad input leaves neither records nor objects, and neither does a crash.
   */
  async create(user: AuthUser, form: ReceivedForm, upload: PendingUpload): Promise<RecordView | RecordView[]> {
    const created = await this.createRecords(user, form, upload);
    if (form.files.length) this.worker.nudge();
    // The creator owns the new records: no request, no visibility lookup needed beyond the defaults.
    const views = created.map(({ record, files, policyName }) => this.toView(record, files, user, null, null, { policyName, groups: [] }));
    return views.length === 1 ? views[0] : views;
  }

  private async createRecords(user: AuthUser, form: ReceivedForm, upload: PendingUpload) {
    const parsed = createRecordSchema.safeParse(form.fields);
    const errors: FieldErrors = parsed.success ? {} : toFieldErrors(parsed.error);
    const dto = parsed.success ? parsed.data : undefined;
    // Even when other fields are invalid, a request to extract from the URL needs no name.
    const fromSource = dto
      ? dto.extractFromURL
      : ['true', '1', 'yes'].includes(
          String(form.fields.extractFromURL ?? '')
            .trim()
            .toLowerCase(),
        );
    if (fromSource && dto && !dto.source) errors.source = [SOURCE_REQUIRED];
    else if (fromSource && form.files.length) errors.extractFromURL = [SOURCE_OR_FILES];
    if (form.files.length === 0 && !fromSource && !dto?.name && !errors.name) errors.name = [NAME_REQUIRED];
    if (user.clientType === 'BASIC' && dto?.policy) errors.policy = [BASIC_POLICY_REFUSED];
    if (!dto || Object.keys(errors).length) throw new FieldValidationError(errors);
    if (dto.extractFromURL) form.files.push(await this.fetchSource(dto.source, upload));

    const groups: StoredUpload[][] = form.files.length === 0 ? [[]] : dto.saveSeparately ? form.files.map((f) => [f]) : [form.files];
    const now = new Date();
    const plans = groups.map((files) => {
      const fileName = files[0]?.fileName;
      const id = randomUUID();
      const privateColumns =
        files.length && dto.privateColumns
          ? { ...dto.privateColumns, ...(dto.linkageKey && { sealedKey: sealLinkageKey(this.cipher, id, dto.linkageKey) }) }
          : null;
      const record: NewRecord = {
        id,
        name: dto.name ?? fileName!,
        // With a name given, a single file's own name stays visible as the alternate name.
        altName: dto.name && files.length === 1 && fileName !== dto.name ? fileName! : '',
        description: dto.description,
        provenance: dto.provenance,
        source: dto.source,
        ownerId: user.id,
        organisationId: user.organisationId,
        origin: dto.extractFromURL ? 'url' : files.length ? 'upload' : 'metadata',
        type: typeOf(files),
        size: files.reduce((sum, f) => sum + f.size, 0),
        version: 1,
        createdAt: now,
        changedAt: now,
        // BASIC clients' records are always visible to everyone.
        visibility: user.clientType === 'BASIC' ? 'EV' : 'PR',
        visibilityId: randomUUID(),
        sharedUserIds: [],
        sharedOrganisationIds: [],
        policyId: dto.policy,
        access: dto.access,
        accessFee: dto.accessFee,
        currency: dto.currency,
        recordFields: dto.recordFields,
        extractOption: dto.extractOption,
        extractFromUrl: dto.extractFromURL,
        deleteFile: dto.deleteFile,
        groupIds: [],
        privateColumns,
      };
      return { record, files };
    });

    const correlationId = currentCorrelationId();
    return this.records.transaction(async (store) => {
      await store.rememberCaller({
        id: user.id,
        username: user.username,
        organisationId: user.organisationId,
        clientType: user.clientType,
        groups: user.groups,
      });
      if (dto.policy && !(await this.policies.belongsTo(store.manager, dto.policy, user.organisationId)))
        throw new FieldValidationError({ policy: [invalidPk(dto.policy)] });
      if (!dto.allowDuplicate) await this.refuseDuplicates(store, user.organisationId, form.files);
      // From this commit on the objects belong to their files, no longer to the upload.
      await this.pending.settle(
        store.manager,
        form.files.map((file) => file.key),
      );
      let order = 0;
      for (const { record, files } of plans) {
        await store.insertRecord(record);
        for (const file of files) {
          const createdAt = new Date(now.getTime() + order++);
          await store.insertFile(
            {
              id: file.fileId,
              recordId: record.id,
              organisationId: user.organisationId,
              name: file.fileName,
              contentType: file.contentType,
              size: file.size,
              checksum: file.checksum,
              storageKey: file.key,
            },
            createdAt,
          );
        }
      }
      const created: Array<{ record: CatalogueRecord; files: CatalogueFile[]; policyName: string | null }> = [];
      const policyName = await this.policies.nameOf(store.manager, dto.policy);
      for (const { record: planned } of plans) {
        const record = (await store.findRecord(planned.id))!;
        const files = await store.files(planned.id);
        await store.publish(createEvent(RecordCreated, record.id, recordSnapshot(record, files), { correlationId }));
        created.push({ record, files, policyName });
      }
      return created;
    });
  }

  /** The source URL's file, stored like an upload; what went wrong is the source field's error. */
  private async fetchSource(source: string, upload: PendingUpload): Promise<StoredUpload> {
    try {
      return await this.sources.download(source, { maxBytes: this.maxUploadBytes, keyFor: objectKeyFor, beforePut: upload.beforePut });
    } catch (error) {
      if (error instanceof SourceDownloadError) throw new FieldValidationError({ source: [error.message] });
      throw error;
    }
  }

  /** Duplicates by checksum within the caller's organisation, and within this upload. */
  private async refuseDuplicates(store: RecordStore, organisationId: string, files: StoredUpload[]): Promise<void> {
    const messages: string[] = [];
    const seen = new Map<string, string>();
    for (const file of files) {
      const earlier = seen.get(file.checksum);
      if (earlier) messages.push(`"${file.fileName}" has the same content as "${earlier}" in this upload. Send allowDuplicate=true to index both.`);
      else seen.set(file.checksum, file.fileName);
    }
    const existing = await store.duplicates(
      organisationId,
      files.map((f) => f.checksum),
    );
    for (const file of files) {
      const match = existing.find((d) => d.checksum === file.checksum);
      if (match)
        messages.push(
          `"${file.fileName}" is already indexed in the record "${match.recordName}" (${match.recordId}). Send allowDuplicate=true to index it again.`,
        );
    }
    if (messages.length) throw new FieldValidationError({ file: messages });
  }

  /** GET /api/records/{id}: whoever may see the record; everyone else gets 404. */
  async details(id: string, viewer: Viewer): Promise<RecordView> {
    if (!isUuid(id)) throw notFound();
    return this.records.read(async (store) => {
      const record = await store.findRecord(id);
      if (!record || !permissionsFor(record, viewer).view) throw notFound();
      return this.viewOf(store, record, viewer);
    });
  }

  /** PUT /api/records/{id}/: the owner, or whoever may edit it (Data Admins of its organisation). */
  async update(id: string, user: AuthUser, dto: UpdateRecordDto): Promise<RecordView> {
    if (!isUuid(id)) throw notFound();
    const correlationId = currentCorrelationId();
    return this.records.transaction(async (store) => {
      const record = await this.editable(store, id, user);
      const errors: FieldErrors = {};
      if (user.clientType === 'BASIC' && dto.policy) errors.policy = [BASIC_POLICY_REFUSED];
      if (dto.visibility && dto.visibility !== 'EV' && !record.ownerOnly && ownerClientTypeOf(record, user) === 'BASIC')
        errors.visibility = [BASIC_VISIBILITY_FIXED];
      Object.assign(errors, await this.lineage.refusalToWiden(store, record, dto, { visibility: 'visibility', access: 'access' }));
      // A record's policy is one of its organisation's.
      if (!errors.policy && dto.policy && dto.policy !== record.policyId && !(await this.policies.belongsTo(store.manager, dto.policy, record.organisationId)))
        errors.policy = [invalidPk(dto.policy)];
      let groupIds = record.groupIds;
      if (dto.groups) {
        try {
          groupIds = await this.groupsService.recordGroupsFor(store.manager, user, record.groupIds, dto.groups);
        } catch (error) {
          if (!(error instanceof FieldValidationError)) throw error;
          Object.assign(errors, error.getResponse());
        }
      }
      if (Object.keys(errors).length) throw new FieldValidationError(errors);

      const next: CatalogueRecord = {
        ...record,
        name: dto.name ?? record.name,
        altName: dto.alt_name ?? record.altName,
        description: dto.description ?? record.description,
        provenance: dto.provenance ?? record.provenance,
        source: dto.source ?? record.source,
        recordFields: dto.recordFields ?? dto.RECORD ?? record.recordFields,
        access: dto.access ?? record.access,
        accessFee: dto.accessFee === undefined ? record.accessFee : dto.accessFee,
        currency: dto.currency ?? record.currency,
        policyId: dto.policy === undefined ? record.policyId : dto.policy,
        groupIds,
      };
      if (dto.visibility) {
        next.visibility = dto.visibility;
        // The custom lists apply to CU only; they are set through /api/visibilities/.
        if (dto.visibility !== 'CU') Object.assign(next, { sharedUserIds: [], sharedOrganisationIds: [] });
      }
      const saved = await this.save(store, record, next, correlationId);
      return this.viewOf(store, saved, user);
    });
  }

  /** Saves a changed record (new version) and publishes record.updated; unchanged records are left alone. */
  async save(store: RecordStore, before: CatalogueRecord, next: CatalogueRecord, correlationId?: string): Promise<CatalogueRecord> {
    if (editableFields(before) === editableFields(next)) return before;
    await store.saveRecord({ ...next, version: before.version + 1, changedAt: new Date() });
    const saved = (await store.findRecord(before.id))!;
    await store.publish(createEvent(RecordUpdated, saved.id, recordSnapshot(saved, await store.files(saved.id)), { correlationId }));
    return saved;
  }

  /** DELETE /api/records/{id}/: the record, its files and their objects; record.deleted tells the others. */
  async remove(id: string, user: AuthUser): Promise<void> {
    if (!isUuid(id)) throw notFound();
    const correlationId = currentCorrelationId();
    const keys = await this.records.transaction(async (store) => {
      const record = await store.findRecord(id, { forUpdate: true });
      const permissions = record && permissionsFor(record, user);
      if (!record || !permissions?.view) throw notFound();
      if (!permissions.delete) throw forbidden();
      const removed = await store.deleteRecord(id);
      // Deleted after the commit; should the process die first, the sweep deletes them.
      await this.pending.deleting(store.manager, removed);
      await store.publish(createEvent(RecordDeleted, id, { recordId: id, ownerId: record.ownerId, organisationId: record.organisationId }, { correlationId }));
      return removed;
    });
    await this.pending.remove(keys);
  }

  /** PUT /api/files/{id}/: renames a file of a record the caller may edit. */
  async renameFile(fileId: string, user: AuthUser, body: unknown) {
    if (!isUuid(fileId)) throw notFound();
    const parsed = z.object({ name: nameField }, { error: 'Expected a JSON object.' }).safeParse(body ?? {});
    const correlationId = currentCorrelationId();
    return this.records.transaction(async (store) => {
      const file = await store.findFile(fileId);
      if (!file) throw notFound();
      const record = await this.editable(store, file.recordId, user);
      if (!parsed.success) throw new FieldValidationError(toFieldErrors(parsed.error));
      if (parsed.data.name !== file.name) {
        await store.renameFile(file.id, parsed.data.name);
        await store.touchRecord(record.id, new Date());
        const touched = (await store.findRecord(record.id))!;
        await store.publish(createEvent(RecordUpdated, record.id, recordSnapshot(touched, await store.files(record.id)), { correlationId }));
      }
      // An editor may download, unless the record is a derivative whose sources no longer allow it (then: as anyone).
      const blocked = (await this.lineage.standing(store, record)).some((s) => s.blocks);
      return fileView((await store.findFile(file.id))!, permissionsFor(record, user).download && !blocked);
    });
  }

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
      await this.refuseBlockedDownload(store, record);
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
      await this.refuseBlockedDownload(store, record);
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
  private async refuseBlockedDownload(store: RecordStore, record: CatalogueRecord): Promise<void> {
    const blocked = await this.lineage.downloadBlocked(store, record);
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

  /** The record if the caller may edit it: 404 when they may not even see it, 403 when they only see it. */
  async editable(store: RecordStore, id: string, user: AuthUser): Promise<CatalogueRecord> {
    const record = await store.findRecord(id, { forUpdate: true });
    const permissions = record && permissionsFor(record, user);
    if (!record || !permissions?.view) throw notFound();
    if (!permissions.edit) throw forbidden();
    return record;
  }

  async viewOf(store: RecordStore, record: CatalogueRecord, viewer: Viewer): Promise<RecordView> {
    const files = await store.files(record.id);
    const requestStatus = await this.requestStatus(record, viewer);
    const names = {
      policyName: await this.policies.nameOf(store.manager, record.policyId),
      groups: viewer ? await this.groups.namesIn(store.manager, viewer.organisationId, record.groupIds) : [],
    };
    const permissions = permissionsFor(record, viewer);
    let visibility = null;
    if (permissions.edit) {
      const shared =
        record.visibility === 'CU'
          ? { users: await store.knownUsers(record.sharedUserIds), organisations: await store.knownOrganisations(record.sharedOrganisationIds) }
          : { users: [], organisations: [] };
      visibility = visibilityView(record, shared, ownerClientTypeOf(record, viewer));
    }
    // The related records relations keeps for this one, as far as this viewer may see them.
    const topRelated = topRelatedFor(await this.related.candidates(store.manager, record.id), viewer);
    const standing = await this.lineage.standing(store, record);
    const lineage = {
      blocked: standing.some((s) => s.blocks),
      lineage: this.lineage.lineageView(record, standing, viewer),
      derivatives: await this.lineage.derivativesView(store, record, viewer),
    };
    return this.toView(record, files, viewer, visibility, requestStatus, names, topRelated, lineage);
  }

  /** The caller's request for the record (owners never request their own). */
  private async requestStatus(record: CatalogueRecord, viewer: Viewer): Promise<ShownRequestStatus | null> {
    if (!viewer || viewer.id === record.ownerId) return null;
    return this.requests.statusOf(record.id, viewer.id);
  }

  private toView(
    record: CatalogueRecord,
    files: CatalogueFile[],
    viewer: Viewer,
    visibility: ReturnType<typeof visibilityView> | null,
    requestStatus: ShownRequestStatus | null,
    names: { policyName: string | null; groups: NamedId[] },
    topRelated: TopRelatedView[] = [],
    lineage: { blocked: boolean; lineage?: RecordViewExtras['lineage']; derivatives?: RecordViewExtras['derivatives'] } = { blocked: false },
  ): RecordView {
    const permissions = permissionsFor(record, viewer, { approvedRequest: requestStatus === 'approved' });
    const ownerClientType = ownerClientTypeOf(record, viewer);
    if (!visibility && permissions.edit) visibility = visibilityView(record, { users: [], organisations: [] }, ownerClientType);
    const mayDownload = permissions.download && !lineage.blocked;
    const downloadUrl = mayDownload && files.some((f) => f.storageKey) ? downloadPathFor(record.id) : null;
    return recordView(record, files, {
      permissions,
      mayDownload,
      ownerClientType,
      downloadUrl,
      visibility,
      requestStatus,
      ...names,
      topRelated,
      lineage: lineage.lineage,
      derivatives: lineage.derivatives,
    });
  }
}
