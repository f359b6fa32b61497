import { describe, expect, it } from '@jest/globals';
import {
  allAnswered,
  dayAndTime,
  expiryError,
  requestActions,
  requestDateLine,
  sendHint,
  showsNote,
  shownStatus,
  stated,
  unansweredCount,
} from './request-rules';

describe('request screen rules', () => {
  it('lets the requestor send only while new and close until closed; the owner side reviews, decides, revokes', () => {
    expect(requestActions({ role: 'requestor', status: 'new' })).toMatchObject({ send: true, close: true, approve: false, message: false });
    expect(requestActions({ role: 'requestor', status: 'sent' })).toMatchObject({ send: false, close: true, message: true });
    expect(requestActions({ role: 'requestor', status: 'closed' })).toMatchObject({ close: false, message: false });
    expect(requestActions({ role: 'reviewer', status: 'sent' })).toMatchObject({ markReviewed: true, approve: false });
    expect(requestActions({ role: 'reviewer', status: 'review' })).toMatchObject({ approve: true, deny: true, revoke: false, close: false });
    expect(requestActions({ role: 'reviewer', status: 'approved' })).toMatchObject({ approve: false, revoke: true });
  });

  it('shows "< None stated >" for empty texts and expired approvals as expired', () => {
    expect(stated('')).toBe('< None stated >');
    expect(stated('  ')).toBe('< None stated >');
    expect(stated('Flood study')).toBe('Flood study');
    expect(shownStatus({ status: 'approved', expired: true })).toBe('expired');
    expect(shownStatus({ status: 'approved', expired: false })).toBe('approved');
  });

  it('hides the note from BASIC clients unless a note or policies exist', () => {
    expect(showsNote({ note: '', access_policies: [] }, true)).toBe(false);
    expect(showsNote({ note: 'x', access_policies: [] }, true)).toBe(true);
    expect(showsNote({ note: '', access_policies: [{ id: 'p', name: 'P', json_content: [] }] }, true)).toBe(true);
    expect(showsNote({ note: '', access_policies: [] }, false)).toBe(true);
  });

  it('needs every requirement answered', () => {
    expect(
      allAnswered([
        { object: 'a', requirement: 'b', agree: 'yes' },
        { object: 'c', requirement: 'd', agree: 'no' },
      ]),
    ).toBe(true);
    expect(allAnswered([{ object: 'a', requirement: 'b', agree: '' }])).toBe(false);
  });
});

describe('request screen texts and dates', () => {
  it('says what Send Request waits for', () => {
    expect(sendHint(0, 2)).toBeNull();
    expect(sendHint(2, 2)).toBe('Answer the 2 policy questions to send.');
    expect(sendHint(1, 1)).toBe('Answer the policy question to send.');
    expect(sendHint(1, 3)).toBe('Answer the 1 remaining policy question to send.');
    expect(
      unansweredCount([
        {
          json_content: [
            { object: 'a', requirement: 'b', agree: '' },
            { object: 'c', requirement: 'd', agree: 'no' },
          ],
        },
      ]),
    ).toBe(1);
  });

  it('dates a request only once it was sent', () => {
    expect(requestDateLine({ status: 'new', sent: null, created: '2026-11-29T10:00:00Z', data_admin: 'ada' })).toBe('Not sent yet · data administrator ada');
    expect(requestDateLine({ status: 'review', sent: '2026-11-30T10:00:00Z', created: '2026-11-29T10:00:00Z', data_admin: '' })).toBe(
      'Sent on 2026-11-30 · data administrator N/A',
    );
  });

  it('takes an expiry typed as YYYY-MM-DD, a real day after today', () => {
    expect(expiryError('', '2026-11-29')).toBeNull();
    expect(expiryError('2027-01-31', '2026-11-29')).toBeNull();
    expect(expiryError('01/31/2027', '2026-11-29')).toBe('Enter the day as YYYY-MM-DD, e.g. 2027-01-31.');
    expect(expiryError('2027-02-30', '2026-11-29')).toBe('2027-02-30 is not a day of the calendar.');
    expect(expiryError('2026-11-29', '2026-11-29')).toBe('The expiry must be after today.');
    expect(dayAndTime('2026-11-29T10:05:00')).toBe('2026-11-29 10:05');
  });
});
