import type { ClientType } from '@dc/platform';
import { ACCESS_OPTIONS, visibilityOptionsFor, VISIBILITY_OPTIONS } from '../access-options/access-options';
import { summariseMeta } from '../extraction/meta-summary';
import type { NamedId } from '../directory/directory.repository';
import type { CatalogueFile, CatalogueRecord, RecordPermissions } from './record';

/** The Visibility object (spec section 3), as /api/visibilities/ and visibilitymodel_set show it. */
export interface VisibilityView {
  id: string;
  visibility_selection: CatalogueRecord['visibility'];
  organisations_with_visibility: NamedId[];
  users_with_visibility: NamedId[];
  visibility_options: typeof VISIBILITY_OPTIONS;
  scope: 'RE';
  associated_record: string;
}

export function visibilityView(record: CatalogueRecord, shared: { users: NamedId[]; organisations: NamedId[] }, ownerClientType: ClientType | null): VisibilityView {
  const custom = record.visibility === 'CU';
  return {
    id: record.visibilityId,
    visibility_selection: record.visibility,
    organisations_with_visibility: custom ? shared.organisations : [],
    users_with_visibility: custom ? shared.users : [],
    visibility_options: visibilityOptionsFor(ownerClientType),
    scope: 'RE',
    associated_record: record.id,
  };
}

export function fileView(file: CatalogueFile) {
  return {
    id: file.id,
    name: file.name,
    content_type: file.contentType,
    size: file.size,
    checksum: file.checksum,
    /** null while extraction has not ended: the details then show the Working tab. */
    META: file.meta,
    extraction_status: file.status,
    stored: file.storageKey !== null,
    date_created: file.createdAt.toISOString(),
  };
}

export interface RecordViewExtras {
  permissions: RecordPermissions;
  /** The owner's client type as far as the caller knows it (theirs when they own it). */
  ownerClientType: ClientType | null;
  downloadUrl: string | null;
  /** Only for those who may edit the record; others see an empty visibilitymodel_set. */
  visibility: VisibilityView | null;
  requestStatus: string | null;
}

/** The full Record of spec section 3, for GET /api/records/{id} and the answers of POST and PUT. */
export function recordView(record: CatalogueRecord, files: CatalogueFile[], extras: RecordViewExtras) {
  const latestWithMeta = [...files].reverse().find((f) => f.meta);
  const working = files.some((f) => f.status === 'pending' || f.status === 'running');
  return {
    id: record.id,
    name: record.name,
    alt_name: record.altName,
    description: record.description,
    provenance: record.provenance,
    source: record.source,
    user: record.ownerUsername,
    origin: record.origin,
    type: record.type,
    size: record.size,
    version: record.version,
    date_created: record.createdAt.toISOString(),
    date_changed: record.changedAt.toISOString(),
    visibility: record.visibility,
    policy: record.policyId,
    // Policies arrive with their own issue; until then no name is known.
    policy_name: null,
    access: record.access,
    access_options: ACCESS_OPTIONS,
    visibility_options: visibilityOptionsFor(extras.ownerClientType),
    accessFee: record.accessFee,
    currency: record.currency,
    fee: { fixed_fee: record.accessFee, currency: record.currency },
    groups: record.groupIds,
    organisation: { id: record.organisationId, name: record.organisationName },
    visibilitymodel_set: extras.visibility ? [extras.visibility] : [],
    is_owner: extras.permissions.isOwner,
    edit: extras.permissions.edit,
    can_delete: extras.permissions.delete,
    request_status: extras.requestStatus,
    enc_headers: latestWithMeta ? summariseMeta(latestWithMeta.meta).encryptedColumns : [],
    download_url: extras.downloadUrl,
    top_related: [],
    extraction_status: files.length === 0 ? null : working ? 'working' : 'done',
    RECORD: Object.fromEntries(record.recordFields.map((f) => [f.label, f.value])),
    record_fields: record.recordFields,
    FILES: files.map(fileView),
  };
}

export type RecordView = ReturnType<typeof recordView>;
