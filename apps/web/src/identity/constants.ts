// These mirror libs/contracts/src/accounts.ts. They are copied, not imported: the contracts index
// also registers every event schema, which would put zod and the registry into the web bundle.

/** Permission names the identity service grants (spec section 6). */
export const PERMISSIONS = {
  changeOrganisation: 'account.change_organisation',
  addAccount: 'account.add_userprofile',
  changeAccount: 'account.change_userprofile',
  deleteAccount: 'account.delete_userprofile',
} as const;

/** The fixed groups of every organisation (spec section 2, Accounts; architecture section 8). */
export const GROUPS = [
  { id: 1, name: 'Access Admin' },
  { id: 2, name: 'Data Admin' },
  { id: 3, name: 'Data Viewer' },
] as const;

export function groupName(id: number): string {
  return GROUPS.find((group) => group.id === id)?.name ?? `Group ${id}`;
}
