import { DATA_ADMIN, Permission } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';

/**
 * Who manages an organisation's policies and projects (ARCHITECTURE section 8: Data Admins manage
 * policies and projects). Members of other organisations never learn that they exist.
 */
export function isMemberOf(user: AuthUser, organisationId: string): boolean {
  return user.organisationId === organisationId;
}

export function holdsDataAdmin(user: AuthUser, organisationId: string, permission: string): boolean {
  return isMemberOf(user, organisationId) && (user.permissions.includes(permission) || user.groups.includes(DATA_ADMIN));
}

export const canManagePolicies = (user: AuthUser, organisationId: string) => holdsDataAdmin(user, organisationId, Permission.ManagePolicy);

/** A project is changed by whoever created it, or by a Data Admin of its organisation. */
export const canManageGroup = (user: AuthUser, group: { organisationId: string; ownerId: string }) =>
  isMemberOf(user, group.organisationId) && (group.ownerId === user.id || holdsDataAdmin(user, group.organisationId, Permission.ManageGroup));
