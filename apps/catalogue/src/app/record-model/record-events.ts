import { createEvent, type EventEnvelope, FileMetadataExtracted, FileSketched, type RecordSnapshot } from '@dc/contracts';
import { type TableSketch, withoutCellValues } from '@dc/extraction';
import { MAX_SUMMARY_HEADERS, MAX_SUMMARY_WORDS, summariseMeta } from './meta-summary';
import type { CatalogueFile, CatalogueRecord } from './record';

/** The payload of record.created and record.updated: what search, requests and relations keep. */
export function recordSnapshot(record: CatalogueRecord, files: CatalogueFile[]): RecordSnapshot {
  const headers = new Set<string>();
  const words = new Set<string>();
  const encrypted = new Set<string>();
  let totalRows: number | null = null;
  for (const file of files) {
    if (!file.meta) continue;
    // Words of cells must not become search words (META stored before docs/metadata-before-access.md had them).
    const summary = summariseMeta(withoutCellValues(file.meta));
    summary.headers.forEach((h) => headers.size < MAX_SUMMARY_HEADERS && headers.add(h));
    summary.words.forEach((w) => words.size < MAX_SUMMARY_WORDS && words.add(w));
    summary.encryptedColumns.forEach((h) => encrypted.add(h));
    if (summary.totalRows !== null) totalRows = (totalRows ?? 0) + summary.totalRows;
  }
  const custom = record.visibility === 'CU';
  return {
    recordId: record.id,
    name: record.name,
    altName: record.altName,
    description: record.description,
    provenance: record.provenance,
    source: record.source,
    ownerId: record.ownerId,
    ownerUsername: record.ownerUsername,
    organisationId: record.organisationId,
    organisationName: record.organisationName,
    visibility: record.visibility,
    sharedWithUserIds: custom ? record.sharedUserIds : [],
    sharedWithOrganisationIds: custom ? record.sharedOrganisationIds : [],
    groupIds: record.groupIds,
    projects: record.projects,
    access: record.access,
    ownerOnly: record.ownerOnly,
    derivedFrom: record.derivedFrom,
    accessFee: record.accessFee,
    currency: record.currency,
    policyId: record.policyId,
    origin: record.origin,
    type: record.type,
    size: record.size,
    version: record.version,
    createdAt: record.createdAt.toISOString(),
    changedAt: record.changedAt.toISOString(),
    headers: [...headers],
    words: [...words],
    totalRows,
    encryptedHeaders: [...encrypted],
    files: files.map((f) => ({ fileId: f.id, name: f.name, contentType: f.contentType, size: f.size, checksum: f.checksum, extractionStatus: f.status })),
  };
}

/** The file a file event is about. */
type EventFile = Pick<CatalogueFile, 'id' | 'recordId' | 'name' | 'contentType' | 'storageKey'>;

/** file.metadata-extracted: the final META of a file (extracted, or made while indexing), summarised. */
export function metadataExtractedEvent(
  file: EventFile,
  outcome: { meta: Record<string, unknown>; status: 'done' | 'failed' | 'skipped'; extractOption: CatalogueRecord['extractOption'] },
  correlationId?: string,
): EventEnvelope {
  const summary = summariseMeta(outcome.meta);
  return createEvent(
    FileMetadataExtracted,
    file.id,
    {
      recordId: file.recordId,
      fileId: file.id,
      fileName: file.name,
      contentType: file.contentType,
      status: outcome.status,
      extractOption: outcome.extractOption,
      headers: summary.headers,
      totalRows: summary.totalRows,
      errors: summary.errors.slice(0, 50),
      encryptedHeaders: summary.encryptedColumns,
    },
    { correlationId },
  );
}

/** file.sketched: the column sketches gathered while the file was read, for the relations service. */
export function fileSketchedEvent(file: EventFile, tables: TableSketch[], correlationId?: string): EventEnvelope {
  return createEvent(
    FileSketched,
    file.id,
    { recordId: file.recordId, fileId: file.id, fileName: file.name, contentType: file.contentType, storageKey: file.storageKey, tables },
    { correlationId },
  );
}
