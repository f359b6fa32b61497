import type { CatalogueRecord } from './types';

export interface RecordActionChoice {
  /** Download: the server gave a download_url, which it does only to those who may download. */
  download: boolean;
  /** Red for owners, blue for others (spec section 2). */
  downloadColour: 'red' | 'blue';
  /** Request: data that needs a request, for signed-in or anonymous non-owners who may not download yet. */
  request: boolean;
  requestLabel: string;
  requestDisabled: boolean;
}

/**
 * Which of Download and Request the details page offers. The server decides who may download
 * (ARCHITECTURE section 8: the owner, Data Admins of the owner's organisation, anyone when Open,
 * an approved requestor) and says so with download_url; Request is for the others when access is
 * Request. Owners never request their own record.
 */
export function recordActionsFor(record: Pick<CatalogueRecord, 'access' | 'is_owner' | 'download_url' | 'request_status'>): RecordActionChoice {
  const download = !!record.download_url;
  return {
    download,
    downloadColour: record.is_owner ? 'red' : 'blue',
    request: !download && !record.is_owner && record.access === 'RE',
    // Once a request left "new" the button names its status and cannot be used again (spec section 4).
    requestLabel: record.request_status && record.request_status !== 'new' ? `Request ${record.request_status}` : 'Request',
    requestDisabled: !!record.request_status && record.request_status !== 'new',
  };
}
