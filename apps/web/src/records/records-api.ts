import { api, ApiError, parseApiError } from '../api/client';
import { type ResponseOf, typedApi } from '../api/typed';
import { readToken } from '../api/token-storage';
import type { CatalogueRecord, IndexForm, RecordUpdate, Visibility, VisibilityUpdate } from './types';

/** Spec section 9: upload time-out. */
export const UPLOAD_TIMEOUT_MS = 180_000;

export const UPLOAD_TIMED_OUT =
  'The upload did not finish within 3 minutes and was stopped. Check the Workspace before you try again, with fewer or smaller files.';

/** The upload took longer than UPLOAD_TIMEOUT_MS and was stopped. */
export class UploadTimeoutError extends Error {
  constructor() {
    super(UPLOAD_TIMED_OUT);
    this.name = 'UploadTimeoutError';
  }
}
/** Spec section 9: in-progress work on records is polled every 3 s. */
export const EXTRACTION_POLL_MS = 3_000;

/** The upload form's choices beyond the spec's fields: who sees the new records, and each file's own name and description. */
export interface UploadChoices {
  visibility: 'PR' | 'EV';
  access: 'RE' | 'OP';
  /** One per chosen file, in order; sent only for two files or more (one record each). */
  perFile: ReadonlyArray<{ name: string; description: string }>;
}

/** The multipart body of POST /api/records/ (flags as the strings "true"/"false", spec section 5). */
export function indexFormData(files: readonly File[], form: IndexForm, choices?: UploadChoices): FormData {
  const data = new FormData();
  data.append('extractOption', form.extractOption);
  data.append('allowDuplicate', String(form.allowDuplicate));
  data.append('deleteFile', String(form.deleteFile));
  data.append('extractFromURL', form.extractFromURL ? 'YES' : 'NO');
  data.append('saveSeparately', 'true');
  const text: [string, string][] = [
    ['name', form.recordName],
    ['source', form.recordSource],
    ['description', form.recordDescription],
    ['provenance', form.recordProvenance],
  ];
  for (const [key, value] of text) if (value.trim()) data.append(key, value.trim());
  const fields = form.recordFields.filter((f) => f.label.trim());
  if (fields.length) data.append('recordFields', JSON.stringify(fields.map((f) => ({ label: f.label.trim(), value: f.value }))));
  if (choices) {
    data.append('visibility', choices.visibility);
    data.append('access', choices.access);
    if (files.length > 1 && choices.perFile.length === files.length)
      data.append('fileDetails', JSON.stringify(choices.perFile.map((d) => ({ name: d.name.trim(), description: d.description.trim() }))));
  }
  // Files last: the server describes a large CSV as it arrives, with the choices sent before it.
  for (const file of files) data.append('file', file, file.name);
  return data;
}

/**
 * POST /api/records/ through XMLHttpRequest, because fetch reports no upload progress.
 * `onProgress` gets the fraction sent (0..1). Resolves to the created records; rejects with
 * UploadTimeoutError after UPLOAD_TIMEOUT_MS (a timer of the page's, so it covers the whole call).
 */
export function uploadRecords(body: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<CatalogueRecord[]> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      xhr.abort();
    }, UPLOAD_TIMEOUT_MS);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    xhr.open('POST', '/api/records/');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `JWT ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    const parse = (): unknown => {
      try {
        return xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        return xhr.responseText;
      }
    };
    xhr.onload = () =>
      settle(() => {
        const data = parse();
        if (xhr.status >= 200 && xhr.status < 300) resolve(Array.isArray(data) ? (data as CatalogueRecord[]) : [data as CatalogueRecord]);
        else reject(parseApiError(xhr.status, data));
      });
    xhr.onerror = () => settle(() => reject(new ApiError(0)));
    xhr.onabort = () => settle(() => reject(timedOut ? new UploadTimeoutError() : new DOMException('The upload was cancelled.', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** A record as the document types it, with META read as the extraction writes it (the document gives it as a free-form object). */
export const withMeta = (record: ResponseOf<'/api/records/{id}', 'get'>) => record as CatalogueRecord;

/** The signed link behind a record's download_url. */
export type DownloadLink = ResponseOf<'/api/records/{id}/download', 'get'>;

export const recordsApi = {
  get: async (id: string, signal?: AbortSignal) => withMeta(await typedApi.get('/api/records/{id}', { params: { id }, signal })),
  update: async (id: string, body: RecordUpdate) => withMeta(await typedApi.put('/api/records/{id}', body, { params: { id } })),
  remove: (id: string) => typedApi.delete('/api/records/{id}', { params: { id } }),
  /** The signed link behind download_url (a URL the server gives, so not a path of the document): `{url}`, opened in a new window. */
  downloadLink: (downloadUrl: string) => api.get<DownloadLink>(downloadUrl),
  accessOptions: (signal?: AbortSignal) => typedApi.get('/api/accessoptions', { signal }),
  visibility: async (recordId: string, signal?: AbortSignal): Promise<Visibility | undefined> =>
    (await typedApi.get('/api/visibilities', { query: { associated_record: recordId }, signal })).results[0],
  updateVisibility: (id: string, body: VisibilityUpdate) => typedApi.put('/api/visibilities/{id}', body, { params: { id } }),
  /** The record's owner side stops a derivative of it (one of its `derivatives`) from being downloaded, for good. */
  revokeDerivative: (recordId: string, derivedId: string) =>
    typedApi.post('/api/records/{id}/derivatives/{derivedId}/revoke', undefined, { params: { id: recordId, derivedId } }),
  users: (q: string, signal?: AbortSignal) => typedApi.get('/api/userprofile-autofill-list', { query: { q }, signal }),
  organisations: (q: string, signal?: AbortSignal) => typedApi.get('/api/organisation-autofill-list', { query: { q }, signal }),
};
