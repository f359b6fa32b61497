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

/** How many requirements of the request's policies still wait for a yes or no. */
export const unansweredCount = (policies: Array<{ json_content: PolicyItem[] }>) =>
  policies.reduce((n, p) => n + p.json_content.filter((item) => item.agree !== 'yes' && item.agree !== 'no').length, 0);

/** What Send Request waits for, said next to it: "Answer the 2 policy questions to send." */
export function sendHint(unanswered: number, total: number): string | null {
  if (unanswered === 0) return null;
  const questions = unanswered === 1 ? 'policy question' : 'policy questions';
  return unanswered === total
    ? `Answer the ${unanswered === 1 ? '' : `${unanswered} `}${questions} to send.`
    : `Answer the ${unanswered} remaining ${questions} to send.`;
}

/** The line under a request's title: a draft was not sent yet, so it has no request date. */
export function requestDateLine(request: Pick<AccessRequest, 'status' | 'sent' | 'created' | 'data_admin'>): string {
  const admin = `data administrator ${request.data_admin || 'N/A'}`;
  return request.status === 'new' ? `Not sent yet · ${admin}` : `Sent on ${day(request.sent ?? request.created)} · ${admin}`;
}

/**
 * An expiry typed as YYYY-MM-DD (spec section 9): the error to show, or null when it is empty
 * (no end date) or a real day after today.
 */
export function expiryError(text: string, today: string): string | null {
  const value = text.trim();
  if (!value) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'Enter the day as YYYY-MM-DD, e.g. 2027-01-31.';
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return `${value} is not a day of the calendar.`;
  if (value <= today) return 'The expiry must be after today.';
  return null;
}

/** A time as YYYY-MM-DD HH:MM in the viewer's time zone (message times). */
export function dayAndTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Today as YYYY-MM-DD in the viewer's time zone. */
export function todayText(now: Date = new Date()): string {
  return dayAndTime(now.toISOString()).slice(0, 10);
}
