import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DerivationLink, RecordSnapshot, TableSketchPayload } from '@dc/contracts';
import { ServiceDatabase } from '@dc/platform';
import type { FileSketch, RelatedRecord, SketchedRecord } from './related-record';

/** How many of a column's smallest value hashes go into the inverted index (joinable-with). */
export const INDEXED_TOKENS = 32;

/** Who the candidates of joinable-with are for: records that may be readable to them (RecordsRepository.tokenSharers). */
export interface TokenSharersFilter {
  userId: string | null;
  organisationId: string | null;
}

/** A record sharing indexed value hashes: how many through hashed columns, how many through the others. */
export interface TokenSharer {
  recordId: string;
  hashed: number;
  plain: number;
}

interface RecordRow {
  record_id: string;
  name: string;
  owner_id: string;
  organisation_id: string;
  visibility: string;
  shared_user_ids: string[];
  shared_organisation_ids: string[];
  access: string;
  type: string;
  size: string;
  changed_at: Date;
  headers: string[];
  words: string[];
  total_rows: string | null;
  encrypted_headers: string[];
  file_ids: string[];
  owner_only: boolean;
  derived_from: DerivationLink[];
}

interface SketchRow {
  file_id: string;
  record_id: string;
  file_name: string;
  content_type: string;
  storage_key: string | null;
  tables: TableSketchPayload[];
}

const toRecord = (row: RecordRow): RelatedRecord => ({
  id: row.record_id,
  name: row.name,
  ownerId: row.owner_id,
  organisationId: row.organisation_id,
  visibility: row.visibility,
  sharedUserIds: row.shared_user_ids,
  sharedOrganisationIds: row.shared_organisation_ids,
  access: row.access,
  type: row.type,
  size: Number(row.size),
  changedAt: row.changed_at,
  headers: row.headers,
  words: row.words,
  totalRows: row.total_rows === null ? null : Number(row.total_rows),
  encryptedHeaders: row.encrypted_headers,
  fileIds: row.file_ids,
  ownerOnly: row.owner_only,
  derivedFrom: row.derived_from,
});

const toSketch = (row: SketchRow): FileSketch => ({
  fileId: row.file_id,
  recordId: row.record_id,
  fileName: row.file_name,
  contentType: row.content_type,
  storageKey: row.storage_key,
  tables: row.tables,
});

/**
 * Files whose row-hash index no longer matches their sketch (changed or gone): the caller drops
 * their builds in the same transaction (RowIndexRepository.dropBuilds).
 */
export interface StaleRowIndexes {
  staleFiles: string[];
}

/** The relations projection: records and their files' column sketches (relations' own schema). */
@Injectable()
export class RecordsRepository {
  constructor(private readonly db: ServiceDatabase) {}

  /**
   * Applies a record snapshot unless an event at least as new was applied already (a late
   * redelivery or an event overtaken by a re-published snapshot changes nothing). Says whether
   * what its top_related depends on changed: headers and words, and who may read its values
   * (owner, access, ownerOnly: scoring/value-sight.ts).
   */
  async upsertRecord(manager: EntityManager, record: RecordSnapshot, occurredAt: string): Promise<{ relateAgain: boolean } & StaleRowIndexes> {
    const [before] = (await manager.query('SELECT headers, words, owner_id, access, owner_only FROM relations.records WHERE record_id = $1', [
      record.recordId,
    ])) as Array<{
      headers: string[];
      words: string[];
      owner_id: string;
      access: string;
      owner_only: boolean;
    }>;
    const [applied] = (await manager.query(
      `INSERT INTO relations.records (record_id, name, owner_id, organisation_id, visibility, shared_user_ids, shared_organisation_ids, access, type, size,
         changed_at, headers, words, total_rows, encrypted_headers, file_ids, occurred_at, deleted, owner_only, derived_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15::jsonb, $16, $17, false, $18, $19::jsonb)
       ON CONFLICT (record_id) DO UPDATE SET name = EXCLUDED.name, owner_id = EXCLUDED.owner_id, organisation_id = EXCLUDED.organisation_id,
         visibility = EXCLUDED.visibility, shared_user_ids = EXCLUDED.shared_user_ids, shared_organisation_ids = EXCLUDED.shared_organisation_ids,
         access = EXCLUDED.access, type = EXCLUDED.type, size = EXCLUDED.size, changed_at = EXCLUDED.changed_at, headers = EXCLUDED.headers,
         words = EXCLUDED.words, total_rows = EXCLUDED.total_rows, encrypted_headers = EXCLUDED.encrypted_headers, file_ids = EXCLUDED.file_ids,
         occurred_at = EXCLUDED.occurred_at, owner_only = EXCLUDED.owner_only, derived_from = EXCLUDED.derived_from
       WHERE relations.records.occurred_at <= EXCLUDED.occurred_at AND NOT relations.records.deleted
       RETURNING record_id`,
      [
        record.recordId,
        record.name,
        record.ownerId,
        record.organisationId,
        record.visibility,
        record.sharedWithUserIds,
        record.sharedWithOrganisationIds,
        record.access,
        record.type,
        record.size,
        record.changedAt,
        JSON.stringify(record.headers),
        JSON.stringify(record.words),
        record.totalRows,
        JSON.stringify(record.encryptedHeaders),
        record.files.map((f) => f.fileId),
        occurredAt,
        record.ownerOnly,
        JSON.stringify(record.derivedFrom),
      ],
    )) as unknown[];
    // Files the record no longer has (none today, but a snapshot is the truth) lose their sketches.
    const staleFiles = await this.dropFilesOutside(
      manager,
      record.recordId,
      record.files.map((f) => f.fileId),
    );
    if (!applied) return { relateAgain: false, staleFiles };
    if (!before) return { relateAgain: record.headers.length > 0 || record.words.length > 0, staleFiles };
    const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);
    const wordsChanged = !same(before.headers, record.headers) || !same(before.words, record.words);
    const sightChanged = before.owner_id !== record.ownerId || before.access !== record.access || before.owner_only !== record.ownerOnly;
    return { relateAgain: wordsChanged || sightChanged, staleFiles };
  }

  /** Keeps a tombstone so that a late record.updated cannot bring the record back; its sketches go. */
  async deleteRecord(manager: EntityManager, recordId: string, occurredAt: string): Promise<StaleRowIndexes> {
    await manager.query(
      `INSERT INTO relations.records (record_id, name, owner_id, organisation_id, visibility, access, changed_at, occurred_at, deleted)
       VALUES ($1, '', '', '', 'PR', 'RE', $2, $2, true)
       ON CONFLICT (record_id) DO UPDATE SET deleted = true, headers = '[]', words = '[]', file_ids = '{}',
         occurred_at = GREATEST(relations.records.occurred_at, EXCLUDED.occurred_at)`,
      [recordId, occurredAt],
    );
    return { staleFiles: await this.dropFilesOutside(manager, recordId, []) };
  }

  /** Stores a file's sketches and its columns' smallest hashes in the inverted index (replacing earlier ones). */
  async saveSketch(manager: EntityManager, sketch: FileSketch, occurredAt: string): Promise<StaleRowIndexes> {
    const [tombstone] = (await manager.query('SELECT 1 FROM relations.records WHERE record_id = $1 AND deleted', [sketch.recordId])) as unknown[];
    if (tombstone) return { staleFiles: [] };
    // A file's row index is built from its stored object and sketch: either changing drops it.
    const [changed] = (await manager.query(
      'SELECT 1 FROM relations.file_sketches WHERE file_id = $1 AND occurred_at <= $4 AND (storage_key IS DISTINCT FROM $2 OR tables <> $3::jsonb)',
      [sketch.fileId, sketch.storageKey, JSON.stringify(sketch.tables), occurredAt],
    )) as unknown[];
    const staleFiles = changed ? [sketch.fileId] : [];
    await manager.query(
      `INSERT INTO relations.file_sketches (file_id, record_id, file_name, content_type, storage_key, tables, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
       ON CONFLICT (file_id) DO UPDATE SET file_name = EXCLUDED.file_name, content_type = EXCLUDED.content_type, storage_key = EXCLUDED.storage_key,
         tables = EXCLUDED.tables, occurred_at = EXCLUDED.occurred_at
       WHERE relations.file_sketches.occurred_at <= EXCLUDED.occurred_at`,
      [sketch.fileId, sketch.recordId, sketch.fileName, sketch.contentType, sketch.storageKey, JSON.stringify(sketch.tables), occurredAt],
    );
    await manager.query('DELETE FROM relations.column_tokens WHERE file_id = $1', [sketch.fileId]);
    const tokens: number[] = [];
    const tables: number[] = [];
    const columns: number[] = [];
    const hashed: boolean[] = [];
    sketch.tables.forEach((table, t) =>
      table.columns.forEach((column) => {
        for (const token of column.minhash.slice(0, INDEXED_TOKENS)) {
          tokens.push(token);
          tables.push(t);
          columns.push(column.index);
          hashed.push(column.privacy === 'hashed');
        }
      }),
    );
    if (tokens.length === 0) return { staleFiles };
    await manager.query(
      `INSERT INTO relations.column_tokens (token, record_id, file_id, table_index, column_index, hashed)
       SELECT token, $2, $3, table_index, column_index, hashed
         FROM unnest($1::bigint[], $4::int[], $5::int[], $6::boolean[]) AS t(token, table_index, column_index, hashed)`,
      [tokens, sketch.recordId, sketch.fileId, tables, columns, hashed],
    );
    return { staleFiles };
  }

  /** Drops the sketches and index tokens of the record's files not in `fileIds`; answers the files dropped. */
  private async dropFilesOutside(manager: EntityManager, recordId: string, fileIds: string[]): Promise<string[]> {
    await manager.query('DELETE FROM relations.column_tokens WHERE record_id = $1 AND NOT (file_id = ANY($2))', [recordId, fileIds]);
    const [gone] = (await manager.query('DELETE FROM relations.file_sketches WHERE record_id = $1 AND NOT (file_id = ANY($2)) RETURNING file_id', [
      recordId,
      fileIds,
    ])) as [Array<{ file_id: string }>, number];
    return gone.map((row) => row.file_id);
  }

  async findRecords(ids: string[]): Promise<RelatedRecord[]> {
    if (ids.length === 0) return [];
    const rows = (await this.db.dataSource.query('SELECT * FROM relations.records WHERE record_id = ANY($1) AND NOT deleted', [ids])) as RecordRow[];
    return rows.map(toRecord);
  }

  /** The records with their files' sketches, in the order of `ids` (unknown and deleted ones left out). */
  async sketched(ids: string[]): Promise<SketchedRecord[]> {
    const records = await this.findRecords(ids);
    if (records.length === 0) return [];
    const rows = (await this.db.dataSource.query('SELECT * FROM relations.file_sketches WHERE record_id = ANY($1)', [records.map((r) => r.id)])) as SketchRow[];
    const sketches = new Map(rows.map((row) => [row.file_id, toSketch(row)]));
    return ids
      .map((id) => records.find((r) => r.id === id))
      .filter((r): r is RelatedRecord => !!r)
      .map((record) => ({ record, files: record.fileIds.map((id) => sketches.get(id)).filter((s): s is FileSketch => !!s) }));
  }

  /**
   * Records sharing indexed value hashes with these tokens, with how many they share through
   * hashed columns and through the others, best first by the total: joinable-with narrows them to
   * what its caller may read (RelatedService). `among` limits them to records that may be readable
   * to that caller (a superset: owned, the organisation's, Open, approved once), so the many records
   * of strangers the caller may not download are never counted.
   */
  async tokenSharers(recordId: string, tokens: number[], among: TokenSharersFilter): Promise<TokenSharer[]> {
    if (tokens.length === 0) return [];
    const rows = (await this.db.dataSource.query(
      `SELECT t.record_id, count(*) FILTER (WHERE t.hashed)::int AS hashed, count(*) FILTER (WHERE NOT t.hashed)::int AS plain
       FROM relations.column_tokens t JOIN relations.records r ON r.record_id = t.record_id AND NOT r.deleted
       WHERE t.token = ANY($1::bigint[]) AND t.record_id <> $2
         AND (t.hashed OR r.owner_id = $3 OR r.organisation_id = $4 OR r.access = 'OP'
              OR EXISTS (SELECT 1 FROM relations.request_grants g WHERE g.record_id = t.record_id AND g.requestor_id = $3 AND g.status = 'approved'))
       GROUP BY t.record_id`,
      [tokens, recordId, among.userId, among.organisationId],
    )) as Array<{ record_id: string; hashed: number; plain: number }>;
    return rows.map((r) => ({ recordId: r.record_id, hashed: r.hashed, plain: r.plain }));
  }

  /**
   * Records worth relating to this one for top_related, without scanning every record: those sharing
   * indexed value hashes with it where every viewer of the pair may read both sides' values
   * (scoring/value-sight.ts publicSight: records of the same owner, Open records, hashed columns),
   * best first, then those sharing a header; with their sketches.
   */
  async relatedCandidates(record: SketchedRecord, limit: number): Promise<SketchedRecord[]> {
    const { ownerId, ownerOnly, access } = record.record;
    const columns = record.files.flatMap((f) => f.tables.flatMap((t) => t.columns));
    const tokensOf = (keep: (privacy: string) => boolean) => [
      ...new Set(columns.filter((c) => keep(c.privacy)).flatMap((c) => c.minhash.slice(0, INDEXED_TOKENS))),
    ];
    // Values the whole world may compare: hashed columns, and every column of an Open record.
    const publicTokens = tokensOf((privacy) => privacy === 'hashed' || (!ownerOnly && access === 'OP'));
    // Values only the same owner's records may be compared with (never a derivative's: its data is not theirs for good).
    const ownTokens = ownerOnly ? [] : tokensOf(() => true);
    const rows = (await this.db.dataSource.query(
      `SELECT t.record_id, count(*)::int AS shared
       FROM relations.column_tokens t JOIN relations.records r ON r.record_id = t.record_id AND NOT r.deleted
       WHERE t.record_id <> $1 AND (
         (t.token = ANY($2::bigint[]) AND r.owner_id = $4 AND NOT r.owner_only)
         OR (t.token = ANY($3::bigint[]) AND (t.hashed OR (r.access = 'OP' AND NOT r.owner_only))))
       GROUP BY t.record_id ORDER BY shared DESC, t.record_id LIMIT $5`,
      [record.record.id, ownTokens, publicTokens, ownerId, limit],
    )) as Array<{ record_id: string }>;
    const ids = rows.map((r) => r.record_id);
    for (const id of await this.recordsSharingHeaders(record.record.id, record.record.headers, limit)) if (!ids.includes(id)) ids.push(id);
    return this.sketched(ids);
  }

  /** Records sharing a header word with these, most shared first (candidates of top_related). */
  async recordsSharingHeaders(recordId: string, headers: string[], limit: number): Promise<string[]> {
    if (headers.length === 0) return [];
    const rows = (await this.db.dataSource.query(
      `SELECT record_id FROM relations.records r
       WHERE NOT deleted AND record_id <> $1 AND r.headers ?| $2::text[]
       ORDER BY (SELECT count(*) FROM jsonb_array_elements_text(r.headers) h WHERE h = ANY($2::text[])) DESC, changed_at DESC LIMIT $3`,
      [recordId, headers, limit],
    )) as Array<{ record_id: string }>;
    return rows.map((r) => r.record_id);
  }
}
