import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, RecordCreated } from '@dc/contracts';
import { APP_CONFIG, AppConfig, AuthUser, currentCorrelationId, FieldErrors, FieldValidationError, invalidPk, SecretCipher, toFieldErrors } from '@dc/platform';
import { ExtractionWorker } from '../extraction/extraction.worker';
import { PoliciesRepository } from '../policies/policies.repository';
import { sealLinkageKey } from '../record-model/linkage-key';
import { type CatalogueFile, type CatalogueRecord, objectKeyFor } from '../record-model/record';
import { recordSnapshot } from '../record-model/record-events';
import { BASIC_POLICY_REFUSED, BASIC_VISIBILITY_FIXED, NAME_REQUIRED, SOURCE_OR_FILES, SOURCE_REQUIRED } from '../record-model/records.errors';
import { firstVersion, initialVisibility } from '../record-store/new-record';
import { type NewRecord, type RecordStore, RecordsRepository } from '../record-store/records.repository';
import { recordViewFor, type RecordView } from '../record-view/record-view';
import { PendingObjects, type PendingUpload } from '../recovery/pending-objects';
import { extensionOf, type ReceivedForm, type StoredUpload } from '../uploads/busboy-multipart';
import { SourceDownloader, SourceDownloadError } from '../uploads/source-download';
import { createRecordSchema } from './create-record.dto';

/** Record type from its files: their extensions ("csv", "csv, xlsx"), or "metadata" without files. */
function typeOf(files: StoredUpload[]): string {
  if (files.length === 0) return 'metadata';
  const kinds = [...new Set(files.map((f) => extensionOf(f.fileName) || f.contentType))];
  return kinds.join(', ').slice(0, 100);
}

/** Why per-file details do not fit this upload, or null: one entry per uploaded file, each file its own record. */
function fileDetailsProblem(entries: number, files: number, saveSeparately: boolean): string | null {
  if (entries === 0) return null;
  if (!saveSeparately) return 'Names and descriptions per file need saveSeparately=true (one record per file).';
  if (entries !== files)
    return `Send one entry per uploaded file: ${files} file${files === 1 ? ' was' : 's were'} sent, with ${entries} entr${entries === 1 ? 'y' : 'ies'}.`;
  return null;
}

/** Records made from uploads, a source URL or metadata alone (POST /api/records/). Rules here; I/O in the repositories. */
@Injectable()
export class RecordCreation {
  constructor(
    private readonly records: RecordsRepository,
    private readonly worker: ExtractionWorker,
    private readonly sources: SourceDownloader,
    private readonly policies: PoliciesRepository,
    private readonly cipher: SecretCipher,
    private readonly pending: PendingObjects,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
    const views = created.map(({ record, files, policyName }) =>
      recordViewFor(record, files, user, { visibility: null, requestStatus: null, names: { policyName, groups: [] } }),
    );
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
    if (user.clientType === 'BASIC' && dto?.visibility && dto.visibility !== 'EV') errors.visibility = [BASIC_VISIBILITY_FIXED];
    if (dto?.fileDetails) {
      const problem = fileDetailsProblem(dto.fileDetails.length, form.files.length, dto.saveSeparately);
      if (problem) errors.fileDetails = [problem];
    }
    if (!dto || Object.keys(errors).length) throw new FieldValidationError(errors);
    if (dto.extractFromURL) form.files.push(await this.fetchSource(dto.source, upload));

    const groups: StoredUpload[][] = form.files.length === 0 ? [[]] : dto.saveSeparately ? form.files.map((f) => [f]) : [form.files];
    const now = new Date();
    const plans = groups.map((files, index) => {
      const fileName = files[0]?.fileName;
      // Per-file details apply to records of one file each (fileDetailsProblem checked that).
      const details = dto.fileDetails?.[index] ?? {};
      const name = details.name ?? dto.name;
      const id = randomUUID();
      const privateColumns =
        files.length && dto.privateColumns
          ? { ...dto.privateColumns, ...(dto.linkageKey && { sealedKey: sealLinkageKey(this.cipher, id, dto.linkageKey) }) }
          : null;
      const record: NewRecord = {
        id,
        name: name ?? fileName!,
        // With a name given, a single file's own name stays visible as the alternate name.
        altName: name && files.length === 1 && fileName !== name ? fileName! : '',
        description: details.description ?? dto.description,
        provenance: dto.provenance,
        source: dto.source,
        ownerId: user.id,
        organisationId: user.organisationId,
        origin: dto.extractFromURL ? 'url' : files.length ? 'upload' : 'metadata',
        type: typeOf(files),
        size: files.reduce((sum, f) => sum + f.size, 0),
        ...firstVersion(now, dto.visibility ?? initialVisibility(user.clientType)),
        policyId: dto.policy,
        access: dto.access,
        accessFee: dto.accessFee,
        currency: dto.currency,
        recordFields: dto.recordFields,
        extractOption: dto.extractOption,
        extractFromUrl: dto.extractFromURL,
        deleteFile: dto.deleteFile,
        privateColumns,
      };
      return { record, files };
    });

    const correlationId = currentCorrelationId();
    // One unit of work: the records, their files, the settled uploads and the events commit together.
    return this.records.transaction(async (store) => {
      await store.rememberCaller(user);
      if (dto.policy && !(await this.policies.belongsTo(dto.policy, user.organisationId))) throw new FieldValidationError({ policy: [invalidPk(dto.policy)] });
      if (!dto.allowDuplicate) await this.refuseDuplicates(store, user.organisationId, form.files);
      // From this commit on the objects belong to their files, no longer to the upload.
      await this.pending.settle(form.files.map((file) => file.key));
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
      const policyName = await this.policies.nameOf(dto.policy);
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
}
