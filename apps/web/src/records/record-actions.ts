import { downloadColor, requestLabel } from '../shared/card-rules';
import type { CatalogueRecord } from './types';

export interface RecordActionChoice {
  /** Download: the server gave a download_url, which it does only to those who may download. */
  download: boolean;
  /** Blue for everyone: red is for Delete (spec section 2). */
  downloadColour: 'blue';
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
  const request = requestLabel(record);
  return {
    download,
    downloadColour: downloadColor(record),
    request: !download && !record.is_owner && record.access === 'RE',
    requestLabel: request.label,
    requestDisabled: request.locked,
  };
}
