import { api } from '../api/client';
import type { RecordsPage, RecordsSearch } from './types';

/** Record page size (spec section 9). */
export const RECORDS_PAGE_SIZE = 20;

/** One page of the Workspace list; anonymous visitors use the anonymous endpoint (EV records only). */
export function fetchRecordsPage(search: RecordsSearch, page: number, signedIn: boolean, signal?: AbortSignal): Promise<RecordsPage> {
  const common = { query: search.query, refid: search.refid, page, page_size: RECORDS_PAGE_SIZE };
  if (!signedIn) return api.get<RecordsPage>('/api/recordsannon/', { query: common, token: null, signal });
  return api.get<RecordsPage>('/api/records/', { query: { ...common, view: search.view, group: search.group }, signal });
}

export function deleteRecord(id: string): Promise<void> {
  return api.delete<void>(`/api/records/${encodeURIComponent(id)}/`);
}

/** A short-lived signed link to the record's latest stored file. */
export function fetchDownloadLink(id: string): Promise<{ url: string }> {
  return api.get<{ url: string }>(`/api/records/${encodeURIComponent(id)}/download/`);
}
