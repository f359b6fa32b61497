import { DetailError, type AuthUser } from '@dc/platform';
import type { PermissionName } from '@dc/contracts';

export const NO_PERMISSION = 'You do not have permission to perform this action.';

/**
 * The caller's permissions come from their token. The identity token check (auth/token-check.ts)
 * refuses tokens whose groups differ from the account's, so they are the current ones.
 */
export function requirePermission(user: AuthUser, permission: PermissionName): void {
  if (!user.permissions.includes(permission)) throw new DetailError(NO_PERMISSION, 403);
}
