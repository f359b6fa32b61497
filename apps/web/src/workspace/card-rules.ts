import type { RecordCardData } from './types';

/** The record card's button rules (spec sections 2 and 6), free of React so they can be tested alone. */

/** Prompts for anonymous visitors (spec section 6). */
export const LOGIN_TO_REQUEST = 'Please login to request records.';
export const LOGIN_TO_LINK = 'Please login to link records.';

/** Whether the caller may download: open access, or the owner, or someone with edit rights. */
export const canDownload = (record: RecordCardData) => record.access === 'OP' || !!record.is_owner || !!record.edit;

/** The download button is red for the owner and blue for everyone else. */
export const downloadColor = (record: Pick<RecordCardData, 'is_owner'>): 'red' | 'blue' => (record.is_owner ? 'red' : 'blue');

/** The Request button shows only to non-owners of records whose access is Request. */
export const canRequest = (record: RecordCardData) => record.access === 'RE' && !record.is_owner;

/** "Request {status}" once a request has left new; the button is then disabled (spec section 4). Cards and details alike. */
export function requestLabel(record: Pick<RecordCardData, 'request_status'>): { label: string; locked: boolean } {
  const status = record.request_status;
  return status && status !== 'new' ? { label: `Request ${status}`, locked: true } : { label: 'Request', locked: false };
}

/** "1 record", "20 records", or "1,000+ records" when the server stopped counting at its limit. */
export function recordCountLabel(count: number, capped = false): string {
  const figure = `${count.toLocaleString('en')}${capped ? '+' : ''}`;
  return `${figure} ${count === 1 && !capped ? 'record' : 'records'}`;
}
