/**
 * Access requests as every party sees them (spec section 4; ARCHITECTURE section 8): the statuses,
 * and whether an approval still grants download. Platform-neutral: the services and the web client
 * share these.
 */

/**
 * Spec section 4, plus `revoked` (beyond the spec: the owner side withdrew an approval). A closed
 * request is gone from every list and cannot be reopened; the requestor may then ask again.
 */
export const REQUEST_STATUSES = ['new', 'sent', 'review', 'approved', 'disapproved', 'closed', 'revoked'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What a record or card shows: the status, or `expired` for an approval past its expiry. */
export type ShownRequestStatus = RequestStatus | 'expired';

export function isRequestStatus(value: unknown): value is RequestStatus {
  return typeof value === 'string' && (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** An approval grants download until its expiry (none = until revoked or closed). */
export function grantIsActive(grant: { status: string; expiresAt: string | Date | null }, now: Date = new Date()): boolean {
  if (grant.status !== 'approved') return false;
  return grant.expiresAt === null || new Date(grant.expiresAt).getTime() > now.getTime();
}

/** The status to show: `expired` once an approval's expiry has passed. */
export function shownRequestStatus(grant: { status: RequestStatus; expiresAt: string | Date | null }, now: Date = new Date()): ShownRequestStatus {
  return grant.status === 'approved' && !grantIsActive(grant, now) ? 'expired' : grant.status;
}

/** Policy answers: a requestor answers every requirement yes or no. */
export const POLICY_ANSWERS = ['yes', 'no'] as const;
export type PolicyAnswer = (typeof POLICY_ANSWERS)[number];
