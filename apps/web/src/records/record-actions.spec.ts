import { describe, expect, it } from '@jest/globals';
import { recordActionsFor } from './record-actions';

const record = (fields: Partial<Parameters<typeof recordActionsFor>[0]>) =>
  recordActionsFor({ access: 'RE', is_owner: false, download_url: null, request_status: null, ...fields });
const LINK = '/api/records/42/download/';

describe('Download and Request on the details page', () => {
  it('the owner downloads (blue: red is for Delete) and never requests', () => {
    expect(record({ is_owner: true, download_url: LINK })).toMatchObject({ download: true, downloadColour: 'blue', request: false });
    expect(record({ is_owner: true, access: 'OP', download_url: LINK })).toMatchObject({ download: true, downloadColour: 'blue', request: false });
  });

  it('a Data Admin of the owner’s organisation, given a download_url on a Request record, downloads (blue) and is not asked to request', () => {
    expect(record({ download_url: LINK })).toMatchObject({ download: true, downloadColour: 'blue', request: false });
  });

  it('others see Request on Request records, and Download on Open ones', () => {
    expect(record({})).toMatchObject({ download: false, request: true, requestLabel: 'Request', requestDisabled: false });
    expect(record({ access: 'OP', download_url: LINK })).toMatchObject({ download: true, request: false });
    // Open but nothing stored to download: neither.
    expect(record({ access: 'OP' })).toMatchObject({ download: false, request: false });
  });

  it('once a request has left "new" the button names its status and is disabled', () => {
    expect(record({ request_status: 'new' })).toMatchObject({ request: true, requestLabel: 'Request', requestDisabled: false });
    expect(record({ request_status: 'sent' })).toMatchObject({ request: true, requestLabel: 'Request sent', requestDisabled: true });
    expect(record({ request_status: 'disapproved' })).toMatchObject({ requestLabel: 'Request disapproved', requestDisabled: true });
  });
});
