import type { ResponseOf } from '../api/typed';

/** One result of the records list, as documented. */
type RecordCardData = ResponseOf<'/api/records', 'get'>['results'][number];

/** The record card's button rules (spec sections 2 and 6), free of React so they can be tested alone. */

/** Prompts for anonymous visitors (spec section 6). */
export const LOGIN_TO_REQUEST = 'Please login to request records.';
export const LOGIN_TO_LINK = 'Please login to link records.';

/** What the button rules read of a card, or of the record details, which follow the same rules. */
export type CardFacts = Partial<Pick<RecordCardData, 'access' | 'is_owner' | 'edit'>> & { request_status?: string | null };

/**
 * Whether the caller may download, as the record details decide it (ARCHITECTURE section 8): open
 * access, the owner, someone with edit rights (Data Admins of its organisation), or a requestor whose
 * request is approved (and not expired, which the server shows as "expired").
 */
export const canDownload = (record: CardFacts) => record.access === 'OP' || !!record.is_owner || !!record.edit || record.request_status === 'approved';

/**
 * The download button is blue for everyone, the owner included: red is the colour of Delete and of
 * other actions that cannot be undone (issue 25 changed spec section 2, which had it red for owners).
 */
export const downloadColor = (_record: Pick<CardFacts, 'is_owner'>): 'blue' => 'blue';

/** The Request button shows only to non-owners of records whose access is Request, who may not download already. */
export const canRequest = (record: CardFacts) => record.access === 'RE' && !record.is_owner && !canDownload(record);

/** "Request {status}" once a request has left new; the button is then disabled (spec section 4). Cards and details alike. */
export function requestLabel(record: Pick<CardFacts, 'request_status'>): { label: string; locked: boolean } {
  const status = record.request_status;
  return status && status !== 'new' ? { label: `Request ${status}`, locked: true } : { label: 'Request', locked: false };
}

/** "1 record", "20 records", or "1,000+ records" when the server stopped counting at its limit. */
export function recordCountLabel(count: number, capped = false): string {
  const figure = `${count.toLocaleString('en')}${capped ? '+' : ''}`;
  return `${figure} ${count === 1 && !capped ? 'record' : 'records'}`;
}
