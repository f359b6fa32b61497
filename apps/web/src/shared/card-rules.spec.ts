import { describe, expect, it } from '@jest/globals';
import { canDownload, canRequest, type CardFacts, downloadColor, recordCountLabel, requestLabel } from './card-rules';
import { displayName, visibilityLabel } from '../workspace/format';

const record = (fields: CardFacts = {}): CardFacts => fields;

describe('record card buttons (spec sections 2 and 6)', () => {
  it('offers the download to the owner, to editors, and to anyone for open access', () => {
    expect(canDownload(record({ access: 'OP' }))).toBe(true);
    expect(canDownload(record({ access: 'RE', is_owner: true }))).toBe(true);
    expect(canDownload(record({ access: 'RE', edit: true }))).toBe(true);
    expect(canDownload(record({ access: 'RE' }))).toBe(false);
    expect(canDownload(record({}))).toBe(false);
  });

  it('offers the download to an approved requestor, as the details do, but not once the approval expired or was revoked', () => {
    expect(canDownload(record({ access: 'RE', request_status: 'approved' }))).toBe(true);
    for (const status of ['expired', 'revoked', 'sent', 'review', 'disapproved'])
      expect(canDownload(record({ access: 'RE', request_status: status }))).toBe(false);
    expect(canRequest(record({ access: 'RE', request_status: 'approved' }))).toBe(false);
    expect(canRequest(record({ access: 'RE', request_status: 'revoked' }))).toBe(true);
  });

  it('colours the download blue for everyone, the owner included (red is for Delete)', () => {
    expect(downloadColor(record({ is_owner: true }))).toBe('blue');
    expect(downloadColor(record({ is_owner: false, edit: true }))).toBe('blue');
    expect(downloadColor(record({}))).toBe('blue');
  });

  it('offers Request only to non-owners of records that need a request', () => {
    expect(canRequest(record({ access: 'RE' }))).toBe(true);
    expect(canRequest(record({ access: 'RE', is_owner: true }))).toBe(false);
    expect(canRequest(record({ access: 'OP' }))).toBe(false);
    // Data Admins of the owner's organisation may download already.
    expect(canRequest(record({ access: 'RE', edit: true }))).toBe(false);
  });

  it('shows "Request {status}", disabled, once a request left new', () => {
    expect(requestLabel(record({}))).toEqual({ label: 'Request', locked: false });
    expect(requestLabel(record({ request_status: 'new' }))).toEqual({ label: 'Request', locked: false });
    expect(requestLabel(record({ request_status: 'pending' }))).toEqual({ label: 'Request pending', locked: true });
    expect(requestLabel(record({ request_status: 'approved' }))).toEqual({ label: 'Request approved', locked: true });
  });
});

describe('record card text', () => {
  it('titles the card with the alternate name only when it is longer', () => {
    expect(displayName('River flow', 'Daily river discharge')).toBe('Daily river discharge');
    expect(displayName('River flow gauges', 'Flow')).toBe('River flow gauges');
    expect(displayName('River flow', null)).toBe('River flow');
  });

  it('names visibility codes and falls back to N/A', () => {
    expect([visibilityLabel('EV'), visibilityLabel('PR'), visibilityLabel('CU'), visibilityLabel(undefined), visibilityLabel('XX')]).toEqual([
      'Everyone',
      'Private',
      'Custom',
      'N/A',
      'XX',
    ]);
  });

  it('counts records, with a plus when the server stopped counting at its limit', () => {
    expect(recordCountLabel(0)).toBe('0 records');
    expect(recordCountLabel(1)).toBe('1 record');
    expect(recordCountLabel(20)).toBe('20 records');
    expect(recordCountLabel(1000, true)).toBe('1,000+ records');
  });
});
