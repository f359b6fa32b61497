/**
 * Accounts, groups and permissions as both the services and the web client see them
 * (spec sections 3 and 6, ARCHITECTURE section 8). Platform-neutral: plain constants only.
 */

export const CLIENT_TYPES = ['STANDARD', 'BASIC'] as const;
export type AccountClientType = (typeof CLIENT_TYPES)[number];

/** Self-registered accounts are STANDARD; sub-accounts default to BASIC. */
export const DEFAULT_SUB_ACCOUNT_CLIENT_TYPE: AccountClientType = 'BASIC';

export const ACCESS_ADMIN = 1;
export const DATA_ADMIN = 2;
export const DATA_VIEWER = 3;
export const GROUP_IDS = [ACCESS_ADMIN, DATA_ADMIN, DATA_VIEWER] as const;
export type GroupId = (typeof GROUP_IDS)[number];

export const GROUP_NAMES: Record<GroupId, string> = {
  [ACCESS_ADMIN]: 'Access Admin',
  [DATA_ADMIN]: 'Data Admin',
  [DATA_VIEWER]: 'Data Viewer',
};

/** Permission names, as listed in `permissions` of GET /api/account/user-account/ and in the JWT. */
export const Permission = {
  AddAccount: 'account.add_userprofile',
  ChangeAccount: 'account.change_userprofile',
  DeleteAccount: 'account.delete_userprofile',
  ChangeOrganisation: 'account.change_organisation',
  ChangeRecord: 'records.change_record',
  DeleteRecord: 'records.delete_record',
  ReviewRequest: 'requests.review_request',
  ManagePolicy: 'policies.manage_policy',
  ManageGroup: 'groups.manage_group',
  ViewRecord: 'records.view_record',
  AddRequest: 'requests.add_request',
} as const;
export type PermissionName = (typeof Permission)[keyof typeof Permission];

/**
 * What each group grants. Access Admin: accounts and organisation. Data Admin: edit and delete the
 * organisation's records, review their requests, manage policies and projects. Data Viewer: see
 * the organisation's records, request others'.
 */
export const GROUP_PERMISSIONS: Record<GroupId, readonly PermissionName[]> = {
  [ACCESS_ADMIN]: [Permission.AddAccount, Permission.ChangeAccount, Permission.DeleteAccount, Permission.ChangeOrganisation],
  [DATA_ADMIN]: [Permission.ChangeRecord, Permission.DeleteRecord, Permission.ReviewRequest, Permission.ManagePolicy, Permission.ManageGroup],
  [DATA_VIEWER]: [Permission.ViewRecord, Permission.AddRequest],
};

export function isGroupId(value: unknown): value is GroupId {
  return typeof value === 'number' && (GROUP_IDS as readonly number[]).includes(value);
}

/** The permissions held through the given groups, sorted and without duplicates. */
export function permissionsOfGroups(groups: readonly number[]): PermissionName[] {
  const names = new Set<PermissionName>();
  for (const group of groups) if (isGroupId(group)) for (const name of GROUP_PERMISSIONS[group]) names.add(name);
  return [...names].sort();
}
