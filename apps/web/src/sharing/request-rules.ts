import type { AccessRequest, PolicyItem, RequestStatus } from './types';
import { NONE_STATED } from './texts';

/**
 * The request screen's rules (spec sections 4 and 6), free of React. The statuses mirror
 * libs/contracts/src/requests.ts (copied: the contracts index would bring zod into the bundle).
 */

/** Colours of spec section 4 (primary, warning, info, success, danger, light) as Chakra palettes. */
export const STATUS_COLOURS: Record<RequestStatus | 'expired', string> = {
  new: 'blue',
  sent: 'yellow',
  review: 'cyan',
  approved: 'green',
  disapproved: 'red',
  closed: 'gray',
  revoked: 'red',
  expired: 'gray',
};

/** The status shown: an approval past its expiry says expired. */
export const shownStatus = (request: Pick<AccessRequest, 'status' | 'expired'>): RequestStatus | 'expired' =>
  request.status === 'approved' && request.expired ? 'expired' : request.status;

/** "< None stated >" for an empty purpose or note once the form is read-only. */
export const stated = (text: string | null | undefined) => (text && text.trim() ? text : NONE_STATED);

/** Any status other than new locks the form (answers, purpose and note). */
export const isEditable = (request: Pick<AccessRequest, 'status' | 'role'>) => request.role === 'requestor' && request.status === 'new';

/** Every requirement answered yes or no: Send Request is possible. */
export const allAnswered = (items: PolicyItem[]) => items.every((item) => item.agree === 'yes' || item.agree === 'no');

/** What each party may do now (spec section 4, plus revoking an approval). */
export function requestActions(request: Pick<AccessRequest, 'status' | 'role'>) {
  const requestor = request.role === 'requestor';
  const reviewer = request.role === 'reviewer';
  return {
    send: requestor && request.status === 'new',
    close: requestor && request.status !== 'closed',
    approve: reviewer && request.status === 'review',
    deny: reviewer && request.status === 'review',
    revoke: reviewer && request.status === 'approved',
    /** The owner side opening a sent request moves it to review. */
    markReviewed: reviewer && request.status === 'sent',
    message: request.status !== 'new' && request.status !== 'closed',
  };
}

/**
 * BASIC clients see the requestor's note only when a note exists or the record has access
 * policies (spec section 6).
 */
export const showsNote = (request: Pick<AccessRequest, 'note' | 'access_policies'>, basic: boolean) =>
  !basic || !!request.note?.trim() || request.access_policies.length > 0;

/** YYYY-MM-DD of an ISO time, N/A when missing (spec section 9). */
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : 'N/A');
