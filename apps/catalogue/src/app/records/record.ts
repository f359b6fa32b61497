import type { ClientType } from '@dc/platform';
import type { AccessCode, VisibilityCode } from '../access-options/access-options';

export type ExtractOption = 'minimal' | 'metadata' | 'samples';
export type ExtractionStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

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

/** What the caller may do with a record, decided by record-access.ts. */
export interface RecordPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  download: boolean;
  isOwner: boolean;
}
