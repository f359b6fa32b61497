import { describe, expect, it } from '@jest/globals';
import { allAnswered, requestActions, showsNote, shownStatus, stated } from './request-rules';

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
