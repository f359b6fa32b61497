import { DATA_ADMIN, Permission } from './accounts';

/**
 * Who may see and download a record (ARCHITECTURE section 8), as pure rules shared by the services
 * that decide it: the catalogue on its own records, relations on its projection of them.
 */
export interface RecordAccessFacts {
  ownerId: string;
  organisationId: string;
  visibility: 'PR' | 'EV' | 'CU' | string;
  sharedUserIds: readonly string[];
  sharedOrganisationIds: readonly string[];
  access: 'RE' | 'OP' | string;
}

/** What the rules need of the caller (null = an anonymous visitor). */
export interface RecordViewer {
  id: string;
  organisationId: string;
  permissions: readonly string[];
  groups: readonly number[];
}

export interface RecordPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  download: boolean;
  isOwner: boolean;
}

/**
 * Visibility: PR = the owner and the members of the owner's organisation; EV = everyone, anonymous
 * visitors included; CU = as PR, plus the listed organisations and users.
 */
export function canViewRecord(record: RecordAccessFacts, viewer: RecordViewer | null): boolean {
  if (record.visibility === 'EV') return true;
  if (!viewer) return false;
  if (viewer.id === record.ownerId || viewer.organisationId === record.organisationId) return true;
  return record.visibility === 'CU' && (record.sharedUserIds.includes(viewer.id) || record.sharedOrganisationIds.includes(viewer.organisationId));
}

function holdsInOrganisation(viewer: RecordViewer | null, organisationId: string, permission: string): boolean {
  if (!viewer || viewer.organisationId !== organisationId) return false;
  return viewer.permissions.includes(permission) || viewer.groups.includes(DATA_ADMIN);
}

/** Data Admins edit and delete their organisation's records (group 2, or its permission in the token). */
export function isRecordDataAdmin(viewer: RecordViewer | null, organisationId: string): boolean {
  return holdsInOrganisation(viewer, organisationId, Permission.ChangeRecord);
}

/**
 * Download: the owner, Data Admins of the owner's organisation, anyone who may see the record when
 * access is OP, and a requestor whose request was approved.
 */
export function recordPermissions(record: RecordAccessFacts, viewer: RecordViewer | null, options: { approvedRequest?: boolean } = {}): RecordPermissions {
  const view = canViewRecord(record, viewer);
  const isOwner = !!viewer && viewer.id === record.ownerId;
  const edit = view && (isOwner || isRecordDataAdmin(viewer, record.organisationId));
  const remove = view && (isOwner || holdsInOrganisation(viewer, record.organisationId, Permission.DeleteRecord));
  const download = view && (isOwner || isRecordDataAdmin(viewer, record.organisationId) || record.access === 'OP' || !!options.approvedRequest);
  return { view, edit, delete: remove, download, isOwner };
}
