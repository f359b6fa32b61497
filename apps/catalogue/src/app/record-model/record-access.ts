import { canViewRecord, isRecordDataAdmin, recordPermissions, type RecordPermissions } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import type { CatalogueRecord } from './record';

/** null = an anonymous visitor. */
export type Viewer = AuthUser | null;

type AccessFacts = Pick<CatalogueRecord, 'ownerId' | 'organisationId' | 'visibility' | 'sharedUserIds' | 'sharedOrganisationIds' | 'access' | 'ownerOnly'>;

/** Visibility (ARCHITECTURE section 8); the rule lives in libs/contracts, shared with relations. */
export function canView(record: AccessFacts, viewer: Viewer): boolean {
  return canViewRecord(record, viewer);
}

export function isDataAdminOf(viewer: Viewer, organisationId: string): boolean {
  return isRecordDataAdmin(viewer, organisationId);
}

/** The owner's client type: the caller's own when they own the record, else the directory's. */
export function ownerClientTypeOf(record: Pick<CatalogueRecord, 'ownerId' | 'ownerClientType'>, viewer: Viewer) {
  return viewer && viewer.id === record.ownerId ? viewer.clientType : record.ownerClientType;
}

/**
 * Download: the owner, Data Admins of the owner's organisation, anyone who may see the record when
 * access is OP, and a requestor whose request was approved.
 */
export function permissionsFor(record: AccessFacts, viewer: Viewer, options: { approvedRequest?: boolean } = {}): RecordPermissions {
  return recordPermissions(record, viewer, options);
}
