import { canViewRecord, DATA_ADMIN, Permission, RequestStatus } from '@dc/contracts';
import type { AuthUser } from '@dc/platform';
import type { KnownRecord } from '../records/records.repository';
import type { AccessRequest, PolicyItem, RequestPolicy } from './request';

/**
 * The rules of access requests (spec section 4; ARCHITECTURE section 8), free of I/O: who is a
 * party to a request, which status changes each party may make, and how policy answers apply.
 */
export type Party = 'requestor' | 'reviewer';

/** Visibility (ARCHITECTURE section 8), the catalogue's rule (libs/contracts): only a record one may see can be requested; an owner-only one by nobody. */
export function canSee(
  record: Pick<KnownRecord, 'visibility' | 'ownerId' | 'organisationId' | 'sharedUserIds' | 'sharedOrganisationIds' | 'access'> & { ownerOnly?: boolean },
  user: AuthUser,
): boolean {
  return canViewRecord(record, user);
}

/** Data Admins of the owner's organisation review its requests, as the owner does. */
export function isDataAdminOf(user: AuthUser, organisationId: string): boolean {
  return user.organisationId === organisationId && (user.permissions.includes(Permission.ReviewRequest) || user.groups.includes(DATA_ADMIN));
}

export function isReviewer(user: AuthUser, record: Pick<KnownRecord, 'ownerId' | 'organisationId'>): boolean {
  return user.id === record.ownerId || isDataAdminOf(user, record.organisationId);
}

/**
 * The caller's part in a request, or null when they have none (they then learn nothing of it). The
 * owner side sees a request only once it was sent; a draft (new) is the requestor's alone.
 */
export function partyOf(
  user: AuthUser,
  request: Pick<AccessRequest, 'requestorId' | 'status'>,
  record: Pick<KnownRecord, 'ownerId' | 'organisationId'>,
): Party | null {
  if (user.id === request.requestorId) return 'requestor';
  if (request.status !== 'new' && isReviewer(user, record)) return 'reviewer';
  return null;
}

export const OWN_RECORD = 'You own this record: owners cannot request their own data.';
export const ORGANISATION_RECORD = 'Your organisation owns this record: you may download it without a request.';
export const OPEN_RECORD = 'This record is open: whoever may see it may download it without a request.';

/** Why the user may not request the record (a message for the `record` field), or null when they may. */
export function refusalToRequest(user: AuthUser, record: KnownRecord): string | null {
  if (user.id === record.ownerId) return OWN_RECORD;
  if (isDataAdminOf(user, record.organisationId)) return ORGANISATION_RECORD;
  if (record.access === 'OP') return OPEN_RECORD;
  return null;
}

const MOVES: Record<Party, Partial<Record<RequestStatus, RequestStatus[]>>> = {
  requestor: {
    new: ['new', 'sent', 'closed'],
    sent: ['closed'],
    review: ['closed'],
    approved: ['closed'],
    disapproved: ['closed'],
    revoked: ['closed'],
  },
  reviewer: {
    sent: ['review'],
    review: ['approved', 'disapproved'],
    approved: ['revoked'],
  },
};
/** The statuses each party sets; asking for the other party's is not a matter of timing but of right. */
const SETS: Record<Party, RequestStatus[]> = { requestor: ['new', 'sent', 'closed'], reviewer: ['review', 'approved', 'disapproved', 'revoked'] };

export const CLOSED_FOR_GOOD = 'This request is closed and cannot be reopened.';

export type TransitionRefusal = { status: 400 | 403; message: string };

/** null when the party may move the request from `from` to `to`. */
export function refusalToMove(party: Party, from: RequestStatus, to: RequestStatus): TransitionRefusal | null {
  if (from === 'closed') return { status: 400, message: CLOSED_FOR_GOOD };
  if (!SETS[party].includes(to)) return { status: 403, message: 'You do not have permission to perform this action.' };
  if (!(MOVES[party][from] ?? []).includes(to)) return { status: 400, message: `A request in status ${from} cannot become ${to}.` };
  return null;
}

/** The requestor's answers as PUT sends them: access_policies [{id, json_content: [{object, requirement, agree}]}]. */
export interface AnswerInput {
  id?: string;
  json_content: Array<{ object: string; requirement: string; agree: 'yes' | 'no' | '' }>;
}

/**
 * The request's policies with the given answers applied; an answer to a policy or requirement the
 * request does not hold is refused (its message in `errors`). Unanswered items keep their answer.
 */
export function applyAnswers(policies: RequestPolicy[], answers: AnswerInput[]): { policies: RequestPolicy[]; errors: string[] } {
  const errors: string[] = [];
  const next = policies.map((p) => ({ ...p, items: p.items.map((i) => ({ ...i })) }));
  answers.forEach((answer, index) => {
    const policy = answer.id !== undefined ? next.find((p) => p.id === answer.id) : next[index];
    if (!policy) {
      errors.push(
        answer.id !== undefined ? `The policy ${answer.id} is not one of this request's policies.` : 'This request has fewer policies than answered.',
      );
      return;
    }
    for (const given of answer.json_content) {
      const item = policy.items.find((i) => i.object === given.object && i.requirement === given.requirement);
      if (!item) errors.push(`"${given.object}: ${given.requirement}" is not a requirement of the policy "${policy.name}".`);
      else item.agree = given.agree;
    }
  });
  return { policies: next, errors };
}

export const ANSWER_EVERYTHING = 'Answer every requirement of the policy yes or no before sending the request.';

/** Whether every requirement has an answer (a request is sent only then). */
export const everyRequirementAnswered = (policies: RequestPolicy[]) => policies.every((p) => p.items.every((i) => i.agree === 'yes' || i.agree === 'no'));

/** The policy's requirements, unanswered, for a new request. */
export function unanswered(policy: { id: string; name: string; fields: Array<{ topic: string; requirement: string; agree: 'yes' | 'no' }> }): RequestPolicy {
  return {
    id: policy.id,
    name: policy.name,
    items: policy.fields.map((f): PolicyItem => ({ object: f.topic, requirement: f.requirement, agree: '', expected: f.agree })),
  };
}

/**
 * An approval's expiry: an ISO date (the grant lasts to the end of that day, UTC) or date-time, in
 * the future; null or '' for none.
 */
export function parseExpiry(value: unknown, now: Date): { expiresAt: Date | null } | { error: string } {
  if (value === undefined || value === null || value === '') return { expiresAt: null };
  if (typeof value !== 'string') return { error: 'Enter a date (YYYY-MM-DD) or a date and time.' };
  const text = value.trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const date = new Date(dateOnly ? `${text}T23:59:59.999Z` : text);
  if (Number.isNaN(date.getTime()) || (!dateOnly && !/^\d{4}-\d{2}-\d{2}T/.test(text))) return { error: 'Enter a date (YYYY-MM-DD) or a date and time.' };
  if (date.getTime() <= now.getTime()) return { error: 'The expiry must be in the future.' };
  return { expiresAt: date };
}
