import { z } from 'zod';
import type { RecordPermissions } from '@dc/contracts';
import { withoutCellValues, withoutIdentifyingStatistics } from '@dc/extraction';
import { ClientType, isoDateTime } from '@dc/platform';
import { ACCESS_OPTIONS, visibilityOptionsOf, VISIBILITY_OPTIONS } from '../record-model/access-options';
import { summariseMeta } from '../record-model/meta-summary';
import type { NamedId } from '../directory/directory.repository';
import { derivativesViewSchema, type DerivativeView, lineageViewSchema, type LineageView } from '../lineage/lineage-view';
import type { TopRelatedView } from '../related/top-related';
import type { CatalogueFile, CatalogueRecord } from '../record-model/record';
import { ownerClientTypeOf, permissionsFor, type Viewer } from '../record-model/record-access';
import type { ShownRequestStatus } from '../record-model/record-requests';

const optionPair = <T extends [string, ...string[]]>(codes: T) => z.tuple([z.string(), z.enum(codes)]).describe('[label, code]');
const visibilityCode = z.enum(['PR', 'EV', 'CU']);
const namedId = z.object({ id: z.string(), name: z.string() });

export const accessOptionsSchema = z.object({
  visibility_options: z.array(optionPair(['PR', 'EV', 'CU'])),
  access_options: z.array(optionPair(['RE', 'OP'])),
  currency_options: z.array(z.tuple([z.string(), z.string()])),
});

export const visibilityViewSchema = z.object({
  id: z.string(),
  visibility_selection: visibilityCode,
  organisations_with_visibility: z.array(namedId),
  users_with_visibility: z.array(namedId),
  visibility_options: z.array(optionPair(['PR', 'EV', 'CU'])),
  scope: z.literal('RE'),
  associated_record: z.string(),
});

export const fileViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  checksum: z.string(),
  META: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('extracted metadata: FILE (HEADERS, STATS, TOTAL_ROWS), ENCRYPTED_COLS, SHARE_FORMATS; null while extraction runs'),
  extraction_status: z.enum(['pending', 'running', 'done', 'failed', 'skipped']),
  stored: z.boolean(),
  date_created: isoDateTime,
});

/** The full Record of spec section 3 as the API answers it (the OpenAPI document's schema). */
export const recordViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  alt_name: z.string(),
  description: z.string(),
  provenance: z.string(),
  source: z.string(),
  user: z.string().describe("the owner's username"),
  origin: z.string(),
  type: z.string(),
  size: z.number(),
  version: z.number().int(),
  date_created: isoDateTime,
  date_changed: isoDateTime,
  visibility: visibilityCode,
  policy: z.string().nullable(),
  policy_name: z.string().nullable(),
  access: z.enum(['RE', 'OP']),
  access_options: z.array(optionPair(['RE', 'OP'])),
  visibility_options: z.array(optionPair(['PR', 'EV', 'CU'])),
  accessFee: z.number().nullable(),
  currency: z.string(),
  fee: z.object({ fixed_fee: z.number().nullable(), currency: z.string() }),
  groups: z.array(namedId),
  organisation: namedId,
  visibilitymodel_set: z.array(visibilityViewSchema),
  is_owner: z.boolean(),
  edit: z.boolean(),
  can_delete: z.boolean(),
  request_status: z.string().nullable(),
  enc_headers: z.array(z.string()).describe('hashed (encrypted) linkable headers'),
  download_url: z.string().nullable(),
  top_related: z.array(
    z.object({ id: z.string(), name: z.string(), sem_score: z.number(), struct_score: z.number(), stats_score: z.number(), link_score: z.number() }),
  ),
  extraction_status: z.enum(['working', 'done']).nullable(),
  RECORD: z.record(z.string(), z.string()),
  record_fields: z.array(z.object({ label: z.string(), value: z.string() })),
  FILES: z.array(fileViewSchema),
  lineage: lineageViewSchema,
  derivatives: derivativesViewSchema,
});
export type RecordView = z.output<typeof recordViewSchema>;

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

export function visibilityView(
  record: CatalogueRecord,
  shared: { users: NamedId[]; organisations: NamedId[] },
  ownerClientType: ClientType | null,
): VisibilityView {
  const custom = record.visibility === 'CU';
  return {
    id: record.visibilityId,
    visibility_selection: record.visibility,
    organisations_with_visibility: custom ? shared.organisations : [],
    users_with_visibility: custom ? shared.users : [],
    visibility_options: visibilityOptionsOf(record, ownerClientType),
    scope: 'RE',
    associated_record: record.id,
  };
}

/**
 * A file as the API shows it. `mayDownload`: the caller may download the record's data now; others
 * see no statistic that names one person's value (docs/metadata-before-access.md, "Statistics").
 */
export function fileView(file: CatalogueFile, mayDownload: boolean): z.output<typeof fileViewSchema> {
  return {
    id: file.id,
    name: file.name,
    content_type: file.contentType,
    size: file.size,
    checksum: file.checksum,
    /**
     * null while extraction has not ended: the details then show the Working tab. Without the
     * samples option no cell value is shown (docs/metadata-before-access.md); META stored before
     * that rule is masked here, when it is read.
     */
    META: mayDownload ? withoutCellValues(file.meta) : withoutIdentifyingStatistics(withoutCellValues(file.meta)),
    extraction_status: file.status,
    stored: file.storageKey !== null,
    date_created: file.createdAt.toISOString(),
  };
}

export interface RecordViewExtras {
  permissions: RecordPermissions;
  /** The caller may download the data now (permissions, and the record's lineage): META shows them every statistic. */
  mayDownload: boolean;
  /** The owner's client type as far as the caller knows it (theirs when they own it). */
  ownerClientType: ClientType | null;
  downloadUrl: string | null;
  /** Only for those who may edit the record; others see an empty visibilitymodel_set. */
  visibility: VisibilityView | null;
  requestStatus: string | null;
  /** The name of the record's policy (policies of the owner's organisation). */
  policyName: string | null;
  /** The record's projects the viewer knows (their own organisation's), with names. */
  groups: NamedId[];
  /** The related records (relation.top-related) the caller may see, best first. */
  topRelated?: TopRelatedView[];
  /** Its sources and whether they still hold, for those who may edit a record made from others. */
  lineage?: LineageView;
  /** Records made from it, for its owner side. */
  derivatives?: DerivativeView[];
}

/** The full Record of spec section 3, for GET /api/records/{id} and the answers of POST and PUT. */
export function recordView(record: CatalogueRecord, files: CatalogueFile[], extras: RecordViewExtras): RecordView {
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
    policy_name: extras.policyName,
    access: record.access,
    access_options: ACCESS_OPTIONS,
    visibility_options: visibilityOptionsOf(record, extras.ownerClientType),
    accessFee: record.accessFee,
    currency: record.currency,
    fee: { fixed_fee: record.accessFee, currency: record.currency },
    groups: extras.groups,
    organisation: { id: record.organisationId, name: record.organisationName },
    visibilitymodel_set: extras.visibility ? [extras.visibility] : [],
    is_owner: extras.permissions.isOwner,
    edit: extras.permissions.edit,
    can_delete: extras.permissions.delete,
    request_status: extras.requestStatus,
    enc_headers: latestWithMeta ? summariseMeta(latestWithMeta.meta).encryptedColumns : [],
    download_url: extras.downloadUrl,
    top_related: extras.topRelated ?? [],
    extraction_status: files.length === 0 ? null : working ? 'working' : 'done',
    RECORD: Object.fromEntries(record.recordFields.map((f) => [f.label, f.value])),
    record_fields: record.recordFields,
    FILES: files.map((file) => fileView(file, extras.mayDownload)),
    lineage: extras.lineage ?? null,
    derivatives: extras.derivatives ?? [],
  };
}

/** Where the client asks for a signed link (the record's download_url). */
export const downloadPathFor = (recordId: string) => `/api/records/${recordId}/download/`;

/** What a record's view shows beyond the record and its files, looked up for one viewer. */
export interface RecordViewContext {
  visibility: VisibilityView | null;
  requestStatus: ShownRequestStatus | null;
  names: { policyName: string | null; groups: NamedId[] };
  topRelated?: TopRelatedView[];
  lineage?: { blocked: boolean; lineage?: RecordViewExtras['lineage']; derivatives?: RecordViewExtras['derivatives'] };
}

/** The record as this viewer sees it: permissions, download_url and visibility decided from the record's access rules. */
export function recordViewFor(record: CatalogueRecord, files: CatalogueFile[], viewer: Viewer, context: RecordViewContext): RecordView {
  const { requestStatus, names, topRelated = [], lineage = { blocked: false } } = context;
  let visibility = context.visibility;
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
