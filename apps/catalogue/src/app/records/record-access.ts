import { DATA_ADMIN, Permission } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import type { CatalogueRecord, RecordPermissions } from './record';

/** null = an anonymous visitor. */
export type Viewer = AuthUser | null;

type AccessFacts = Pick<CatalogueRecord, 'ownerId' | 'organisationId' | 'visibility' | 'sharedUserIds' | 'sharedOrganisationIds' | 'access'>;

/**
 * Visibility (ARCHITECTURE section 8): PR = the owner and the members of the owner's organisation;
 * EV = everyone, anonymous visitors included; CU = as PR, plus the listed organisations and users.
 */
export function canView(record: AccessFacts, viewer: Viewer): boolean {
  if (record.visibility === 'EV') return true;
  if (!viewer) return false;
  if (viewer.id === record.ownerId || viewer.organisationId === record.organisationId) return true;
  return record.visibility === 'CU' && (record.sharedUserIds.includes(viewer.id) || record.sharedOrganisationIds.includes(viewer.organisationId));
}

/** Data Admins edit and delete their organisation's records (group 2, or its permission in the token). */
function holdsInOrganisation(viewer: Viewer, organisationId: string, permission: string): boolean {
  if (!viewer || viewer.organisationId !== organisationId) return false;
  return viewer.permissions.includes(permission) || viewer.groups.includes(DATA_ADMIN);
}

export function isDataAdminOf(viewer: Viewer, organisationId: string): boolean {
  return holdsInOrganisation(viewer, organisationId, Permission.ChangeRecord);
}

/**
 * Download: the owner, Data Admins of the owner's organisation, anyone who may see the record when
 * access is OP, and a requestor whose request was approved.
 */
export function permissionsFor(record: AccessFacts, viewer: Viewer, options: { approvedRequest?: boolean } = {}): RecordPermissions {
  const view = canView(record, viewer);
  const isOwner = !!viewer && viewer.id === record.ownerId;
  const edit = view && (isOwner || isDataAdminOf(viewer, record.organisationId));
  const remove = view && (isOwner || holdsInOrganisation(viewer, record.organisationId, Permission.DeleteRecord));
  const download = view && (isOwner || isDataAdminOf(viewer, record.organisationId) || record.access === 'OP' || !!options.approvedRequest);
  return { view, edit, delete: remove, download, isOwner };
}
