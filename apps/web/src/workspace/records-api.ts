import { typedApi } from '../api/typed';
import type { RecordsPage, RecordsSearch } from './types';

/** Record page size (spec section 9). */
export const RECORDS_PAGE_SIZE = 20;

/** One page of the Workspace list; anonymous visitors use the anonymous endpoint (EV records only). */
export async function fetchRecordsPage(search: RecordsSearch, page: number, signedIn: boolean, signal?: AbortSignal): Promise<RecordsPage> {
  const common = { query: search.query, refid: search.refid, page, page_size: RECORDS_PAGE_SIZE };
  if (!signedIn) return typedApi.get('/api/recordsannon', { query: common, token: null, signal });
  return typedApi.get('/api/records', { query: { ...common, view: search.view, group: search.group }, signal });
}

export async function deleteRecord(id: string): Promise<void> {
  await typedApi.delete('/api/records/{id}', { params: { id } });
}

/** A short-lived signed link to the record's latest stored file. */
export function fetchDownloadLink(id: string): Promise<{ url: string }> {
  return typedApi.get('/api/records/{id}/download', { params: { id } });
}
