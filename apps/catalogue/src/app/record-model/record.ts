import type { DerivationLink } from '@dc/contracts';
import type { ClientType } from '@dc/platform';
import type { AccessCode, VisibilityCode } from './access-options';

/** Where a file's object is stored. */
export const objectKeyFor = (fileId: string) => `catalogue/files/${fileId}`;

export type ExtractOption = 'minimal' | 'metadata' | 'samples';
export type ExtractionStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

/** Share formats of a private column (spec: exclude, mask or plain, plus a separate hash option). */
export const SHARE_FORMATS = ['exclude', 'mask', 'plain'] as const;
export type ShareFormat = (typeof SHARE_FORMATS)[number];

/** A column picked by its position in the file's table (from 0) or by its header name (ignoring case). */
export type ColumnRef = number | string;

/**
 * The owner's private-column choices for a record's files (POST /api/records/ encryptList, formatList
 * and summaryList), applied by metadata extraction: hashed columns are described from keyed hashes of
 * their values, masked ones show no value, excluded ones are left out of META.
 */
export interface PrivateColumnChoices {
  /** Columns the server hashes under the owner's linkage key (sent with the upload, see sealedKey). */
  hash: ColumnRef[];
  /** Columns hashed in the browser before the upload (private indexing): described, not hashed again. */
  prehashed?: ColumnRef[];
  /** Of hash and prehashed: the columns hashed as CLKs (fuzzy linkage), not exact keyed hashes. */
  fuzzy?: ColumnRef[];
  formats: Array<{ column: ColumnRef; format: ShareFormat }>;
  /** Masked columns whose MIN, MAX, MEAN and STD stay visible. */
  summary: ColumnRef[];
  /** The id of the linkage key the columns are hashed under (libs/extraction linkageKeyId). */
  linkageKeyId?: string | null;
  /**
   * The linkage key, sealed (AES-256-GCM under ENCRYPTION_KEY, bound to the record) only until the
   * record's files are extracted, then erased: the product does not keep linkage keys.
   */
  sealedKey?: string;
}

/** A custom label/value pair of a record (the spec's RECORD, kept in order). */
export interface CustomField {
  label: string;
  value: string;
}

/** A record as the catalogue keeps it, with its owner's names from the directory projection. */
export interface CatalogueRecord {
  id: string;
  name: string;
  altName: string;
  description: string;
  provenance: string;
  source: string;
  ownerId: string;
  /** From the directory; empty when identity's events have not arrived yet. */
  ownerUsername: string;
  ownerClientType: ClientType | null;
  organisationId: string;
  organisationName: string;
  origin: string;
  type: string;
  size: number;
  version: number;
  createdAt: Date;
  changedAt: Date;
  visibility: VisibilityCode;
  visibilityId: string;
  sharedUserIds: string[];
  sharedOrganisationIds: string[];
  policyId: string | null;
  access: AccessCode;
  accessFee: number | null;
  currency: string;
  recordFields: CustomField[];
  extractOption: ExtractOption;
  extractFromUrl: boolean;
  deleteFile: boolean;
  groupIds: string[];
  /** The same projects with their organisations (read with the record; a project lists only to its organisation). */
  projects: Array<{ id: string; organisationId: string }>;
  /** null when every column is plain. */
  privateColumns: PrivateColumnChoices | null;
  /** Its owner's alone, whatever its visibility: derived from data shared with its maker only (lineage). */
  ownerOnly: boolean;
  /** Lineage links under open or grant terms (record events carry them, so relations follows them too). */
  derivedFrom: DerivationLink[];
}

export interface CatalogueFile {
  id: string;
  recordId: string;
  organisationId: string;
  name: string;
  contentType: string;
  size: number;
  checksum: string;
  /** Null once the object was removed after extraction (deleteFile). */
  storageKey: string | null;
  meta: Record<string, unknown> | null;
  status: ExtractionStatus;
  attempts: number;
  error: string | null;
  createdAt: Date;
}
