import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { createEvent, type DerivationLink, type EventEnvelope, RecordUpdated } from '@dc/contracts';
import { DirectoryRepository } from '../directory/directory.repository';
import type { CatalogueFile, CatalogueRecord, CustomField } from '../record-model/record';
import { recordSnapshot } from '../record-model/record-events';
import { UnitOfWork } from '../unit-of-work/unit-of-work';

/** A record as stored, without what the directory adds; ownerOnly only for derivatives (lineage). */
export type NewRecord = Omit<CatalogueRecord, 'ownerUsername' | 'ownerClientType' | 'organisationName' | 'ownerOnly' | 'derivedFrom' | 'projects'> & {
  ownerOnly?: boolean;
};
export type NewFile = Omit<CatalogueFile, 'meta' | 'attempts' | 'error' | 'createdAt' | 'status'>;

export interface DuplicateFile {
  checksum: string;
  fileName: string;
  recordId: string;
  recordName: string;
}

interface RecordRow {
  id: string;
  name: string;
  alt_name: string;
  description: string;
  provenance: string;
  source: string;
  owner_id: string;
  owner_username: string | null;
  owner_client_type: CatalogueRecord['ownerClientType'];
  organisation_id: string;
  organisation_name: string | null;
  origin: string;
  type: string;
  size: string;
  version: number;
  date_created: Date;
  date_changed: Date;
  visibility: CatalogueRecord['visibility'];
  visibility_id: string;
  shared_user_ids: string[];
  shared_organisation_ids: string[];
  policy_id: string | null;
  access: CatalogueRecord['access'];
  access_fee: string | null;
  currency: string;
  record_fields: CustomField[];
  extract_option: CatalogueRecord['extractOption'];
  extract_from_url: boolean;
  delete_file: boolean;
  group_ids: string[];
  projects: Array<{ id: string; organisationId: string }>;
  private_columns: CatalogueRecord['privateColumns'];
  owner_only: boolean;
  derived_from: DerivationLink[];
}

export interface FileRow {
  id: string;
  record_id: string;
  organisation_id: string;
  name: string;
  content_type: string;
  size: string;
  checksum: string;
  storage_key: string | null;
  meta: Record<string, unknown> | null;
  extraction_status: CatalogueFile['status'];
  attempts: number;
  error: string | null;
  created_at: Date;
}

// derived_from: the lineage links whose terms its data depends on (open, grant), as record events carry them.
const RECORD_SELECT = `
  SELECT r.*, u.username AS owner_username, u.client_type AS owner_client_type, o.name AS organisation_name,
         COALESCE((SELECT jsonb_agg(jsonb_build_object('recordId', l.source_record_id, 'terms', l.terms, 'requestId', l.request_id, 'revoked', l.revoked_at IS NOT NULL)
                                    ORDER BY l.source_record_id, l.terms, l.request_id)
                     FROM catalogue.record_lineage l WHERE l.derived_record_id = r.id AND l.terms IN ('open', 'grant')), '[]'::jsonb) AS derived_from,
         COALESCE((SELECT jsonb_agg(jsonb_build_object('id', g.id, 'organisationId', g.organisation_id) ORDER BY g.id)
                     FROM catalogue.groups g WHERE g.id::text = ANY(r.group_ids)), '[]'::jsonb) AS projects
    FROM catalogue.records r
    LEFT JOIN catalogue.users u ON u.id = r.owner_id
    LEFT JOIN catalogue.organisations o ON o.id = r.organisation_id`;

const FILE_COLUMNS = 'id, record_id, organisation_id, name, content_type, size, checksum, storage_key, meta, extraction_status, attempts, error, created_at';

function toRecord(row: RecordRow): CatalogueRecord {
  return {
    id: row.id,
    name: row.name,
    altName: row.alt_name,
    description: row.description,
    provenance: row.provenance,
    source: row.source,
    ownerId: row.owner_id,
    ownerUsername: row.owner_username ?? '',
    ownerClientType: row.owner_client_type ?? null,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name ?? '',
    origin: row.origin,
    type: row.type,
    size: Number(row.size),
    version: row.version,
    createdAt: row.date_created,
    changedAt: row.date_changed,
    visibility: row.visibility,
    visibilityId: row.visibility_id,
    sharedUserIds: row.shared_user_ids,
    sharedOrganisationIds: row.shared_organisation_ids,
    policyId: row.policy_id,
    access: row.access,
    accessFee: row.access_fee === null ? null : Number(row.access_fee),
    currency: row.currency,
    recordFields: row.record_fields,
    extractOption: row.extract_option,
    extractFromUrl: row.extract_from_url,
    deleteFile: row.delete_file,
    groupIds: row.group_ids,
    projects: row.projects,
    privateColumns: row.private_columns,
    ownerOnly: row.owner_only,
    derivedFrom: row.derived_from,
  };
}

export function toFile(row: FileRow): CatalogueFile {
  return {
    id: row.id,
    recordId: row.record_id,
    organisationId: row.organisation_id,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    checksum: row.checksum,
    storageKey: row.storage_key,
    meta: row.meta,
    status: row.extraction_status,
    attempts: row.attempts,
    error: row.error,
    createdAt: row.created_at,
  };
}

/** A column of catalogue.records as insertRecord and saveRecord write it. */
interface RecordColumn {
  name: string;
  value: (record: NewRecord) => unknown;
  cast?: string;
}

/** What saveRecord writes: every field a user may change, and the version and change date. */
const EDITED_COLUMNS: RecordColumn[] = [
  { name: 'name', value: (r) => r.name },
  { name: 'alt_name', value: (r) => r.altName },
  { name: 'description', value: (r) => r.description },
  { name: 'provenance', value: (r) => r.provenance },
  { name: 'source', value: (r) => r.source },
  { name: 'version', value: (r) => r.version },
  { name: 'date_changed', value: (r) => r.changedAt },
  { name: 'visibility', value: (r) => r.visibility },
  { name: 'shared_user_ids', value: (r) => r.sharedUserIds },
  { name: 'shared_organisation_ids', value: (r) => r.sharedOrganisationIds },
  { name: 'policy_id', value: (r) => r.policyId },
  { name: 'access', value: (r) => r.access },
  { name: 'access_fee', value: (r) => r.accessFee },
  { name: 'currency', value: (r) => r.currency },
  { name: 'record_fields', value: (r) => JSON.stringify(r.recordFields), cast: '::jsonb' },
  { name: 'group_ids', value: (r) => r.groupIds },
];

/** What only insertRecord writes: the fields fixed when a record is made. */
const CREATED_COLUMNS: RecordColumn[] = [
  { name: 'owner_id', value: (r) => r.ownerId },
  { name: 'organisation_id', value: (r) => r.organisationId },
  { name: 'origin', value: (r) => r.origin },
  { name: 'type', value: (r) => r.type },
  { name: 'size', value: (r) => r.size },
  { name: 'date_created', value: (r) => r.createdAt },
  { name: 'visibility_id', value: (r) => r.visibilityId },
  { name: 'extract_option', value: (r) => r.extractOption },
  { name: 'extract_from_url', value: (r) => r.extractFromUrl },
  { name: 'delete_file', value: (r) => r.deleteFile },
  { name: 'private_columns', value: (r) => (r.privateColumns === null ? null : JSON.stringify(r.privateColumns)), cast: '::jsonb' },
  { name: 'owner_only', value: (r) => r.ownerOnly ?? false },
];

/** The fields an edit may change: a record whose fields are all the same is not saved again. */
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

/** Record and file I/O in the unit of work (its transaction when one is open, else the pool). */
export class RecordStore {
  constructor(
    private readonly work: UnitOfWork,
    private readonly directory: DirectoryRepository,
  ) {}

  private get manager(): EntityManager {
    return this.work.manager;
  }

  /** Through the outbox, in the same transaction as the change. */
  async publish(...events: EventEnvelope[]): Promise<void> {
    await this.work.publish(...events);
  }

  /** Saves a changed record (new version) and publishes record.updated; unchanged records are left alone. */
  async saveEdited(before: CatalogueRecord, next: CatalogueRecord, correlationId?: string): Promise<CatalogueRecord> {
    if (editableFields(before) === editableFields(next)) return before;
    await this.saveRecord({ ...next, version: before.version + 1, changedAt: new Date() });
    const saved = (await this.findRecord(before.id))!;
    await this.publish(createEvent(RecordUpdated, saved.id, recordSnapshot(saved, await this.files(saved.id)), { correlationId }));
    return saved;
  }

  async findRecord(id: string, options: { forUpdate?: boolean } = {}): Promise<CatalogueRecord | null> {
    const rows: RecordRow[] = await this.manager.query(`${RECORD_SELECT} WHERE r.id = $1 ${options.forUpdate ? 'FOR UPDATE OF r' : ''}`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findRecordByVisibilityId(visibilityId: string, options: { forUpdate?: boolean } = {}): Promise<CatalogueRecord | null> {
    const rows: RecordRow[] = await this.manager.query(`${RECORD_SELECT} WHERE r.visibility_id = $1 ${options.forUpdate ? 'FOR UPDATE OF r' : ''}`, [
      visibilityId,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Up to `limit` record ids after `after` (null: from the start), in id order: for walking every record in batches. */
  async recordIdsAfter(after: string | null, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.manager.query(
      'SELECT id FROM catalogue.records WHERE $1::uuid IS NULL OR id > $1::uuid ORDER BY id LIMIT $2',
      [after, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Records whose owner is the user, or of the organisation when the caller administers its data (not its members' own-only ones). */
  async editableRecords(
    userId: string,
    organisationId: string | null,
    page: { offset: number; limit: number },
  ): Promise<{ count: number; records: CatalogueRecord[] }> {
    const where = 'WHERE r.owner_id = $1 OR (r.organisation_id = $2 AND NOT r.owner_only)';
    const [{ count }]: Array<{ count: string }> = await this.manager.query(`SELECT count(*) FROM catalogue.records r ${where}`, [userId, organisationId]);
    const rows: RecordRow[] = await this.manager.query(`${RECORD_SELECT} ${where} ORDER BY r.date_created DESC, r.id LIMIT $3 OFFSET $4`, [
      userId,
      organisationId,
      page.limit,
      page.offset,
    ]);
    return { count: Number(count), records: rows.map(toRecord) };
  }

  /**
   * The records canViewRecord (libs/contracts) shows an anonymous visitor (EV, not ownerOnly), oldest
   * first, so the pages of the published DCAT catalogue stay put as records are added. Callers still
   * pass each through the rule; this only narrows the read.
   */
  async everyoneVisibleRecords(page: { offset: number; limit: number }): Promise<{ count: number; records: CatalogueRecord[] }> {
    const where = "WHERE r.visibility = 'EV' AND NOT r.owner_only";
    const [{ count }]: Array<{ count: string }> = await this.manager.query(`SELECT count(*) FROM catalogue.records r ${where}`);
    const rows: RecordRow[] = await this.manager.query(`${RECORD_SELECT} ${where} ORDER BY r.date_created, r.id LIMIT $1 OFFSET $2`, [page.limit, page.offset]);
    return { count: Number(count), records: rows.map(toRecord) };
  }

  async files(recordId: string): Promise<CatalogueFile[]> {
    const rows: FileRow[] = await this.manager.query(`SELECT ${FILE_COLUMNS} FROM catalogue.files WHERE record_id = $1 ORDER BY created_at, id`, [recordId]);
    return rows.map(toFile);
  }

  async findFile(fileId: string, options: { forUpdate?: boolean } = {}): Promise<CatalogueFile | null> {
    const rows: FileRow[] = await this.manager.query(`SELECT ${FILE_COLUMNS} FROM catalogue.files WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`, [
      fileId,
    ]);
    return rows[0] ? toFile(rows[0]) : null;
  }

  /**
   * Files of the organisation with one of these checksums. Takes a transaction lock per checksum
   * first, so two uploads of the same file at once cannot both pass the check.
   */
  async duplicates(organisationId: string, checksums: string[]): Promise<DuplicateFile[]> {
    if (checksums.length === 0) return [];
    const sorted = [...new Set(checksums)].sort();
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('catalogue.files:' || $1 || ':' || c, 0)) FROM unnest($2::text[]) AS c`, [
      organisationId,
      sorted,
    ]);
    return this.manager.query(
      `SELECT f.checksum, f.name AS "fileName", r.id AS "recordId", r.name AS "recordName"
         FROM catalogue.files f JOIN catalogue.records r ON r.id = f.record_id
        WHERE f.organisation_id = $1 AND f.checksum = ANY($2) ORDER BY f.created_at`,
      [organisationId, sorted],
    );
  }

  async insertRecord(record: NewRecord): Promise<void> {
    const columns = [...CREATED_COLUMNS, ...EDITED_COLUMNS];
    await this.manager.query(
      `INSERT INTO catalogue.records (id, ${columns.map((c) => c.name).join(', ')})
       VALUES ($1, ${columns.map((c, i) => `$${i + 2}${c.cast ?? ''}`).join(', ')})`,
      [record.id, ...columns.map((c) => c.value(record))],
    );
  }

  async insertFile(file: NewFile, createdAt: Date): Promise<void> {
    await this.manager.query(
      `INSERT INTO catalogue.files (id, record_id, organisation_id, name, content_type, size, checksum, storage_key, created_at, changed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [file.id, file.recordId, file.organisationId, file.name, file.contentType, file.size, file.checksum, file.storageKey, createdAt],
    );
  }

  /** Writes every field a user may change (and the version and change date). */
  async saveRecord(record: CatalogueRecord): Promise<void> {
    await this.manager.query(`UPDATE catalogue.records SET ${EDITED_COLUMNS.map((c, i) => `${c.name} = $${i + 2}${c.cast ?? ''}`).join(', ')} WHERE id = $1`, [
      record.id,
      ...EDITED_COLUMNS.map((c) => c.value(record)),
    ]);
  }

  /** The projects a record is in: a collection change, not an edit of the record (version and change date stay). */
  async setGroups(recordId: string, groupIds: string[]): Promise<void> {
    await this.manager.query('UPDATE catalogue.records SET group_ids = $2 WHERE id = $1', [recordId, groupIds]);
  }

  async touchRecord(recordId: string, changedAt: Date): Promise<void> {
    await this.manager.query('UPDATE catalogue.records SET date_changed = $2 WHERE id = $1', [recordId, changedAt]);
  }

  /** META made while indexing (a SQL table, an S3 object), stored with its status. */
  async storeIndexedMeta(fileId: string, meta: Record<string, unknown>, status: CatalogueFile['status']): Promise<void> {
    await this.manager.query(`UPDATE catalogue.files SET meta = $2::jsonb, extraction_status = $3, extracted_at = now() WHERE id = $1`, [
      fileId,
      JSON.stringify(meta),
      status,
    ]);
  }

  async renameFile(fileId: string, name: string): Promise<void> {
    await this.manager.query('UPDATE catalogue.files SET name = $2, changed_at = now() WHERE id = $1', [fileId, name]);
  }

  /** Deletes the record and its files; returns the storage keys to remove once committed. */
  async deleteRecord(recordId: string): Promise<string[]> {
    // DELETE answers [rows, affected count].
    const [rows]: [Array<{ storage_key: string | null }>, number] = await this.manager.query(
      'DELETE FROM catalogue.files WHERE record_id = $1 RETURNING storage_key',
      [recordId],
    );
    await this.manager.query('DELETE FROM catalogue.records WHERE id = $1', [recordId]);
    return rows.map((r) => r.storage_key).filter((k): k is string => k !== null);
  }

  rememberCaller(user: Parameters<DirectoryRepository['rememberCaller']>[0]): Promise<void> {
    return this.directory.rememberCaller(user);
  }

  knownUsers(ids: string[]) {
    return this.directory.users(ids);
  }

  directoryUser(id: string) {
    return this.directory.user(id);
  }

  knownOrganisations(ids: string[]) {
    return this.directory.organisations(ids);
  }
}

@Injectable()
export class RecordsRepository {
  /** The store in the unit of work: in the transaction open around the caller, if any (event handlers' included). */
  readonly store: RecordStore;

  constructor(
    private readonly work: UnitOfWork,
    directory: DirectoryRepository,
  ) {
    this.store = new RecordStore(work, directory);
  }

  /** Writes in one transaction (the unit of work's); events published through the store go out only if it commits. */
  transaction<T>(work: (store: RecordStore) => Promise<T>): Promise<T> {
    return this.work.transaction(() => work(this.store));
  }

  /** Reads outside a transaction. */
  read<T>(work: (store: RecordStore) => Promise<T>): Promise<T> {
    return work(this.store);
  }
}
