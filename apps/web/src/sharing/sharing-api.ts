import { typedApi } from '../api/typed';
import type { GroupInput, PolicyInput, RequestUpdate } from './types';

/** The calls of spec section 7, "Policies and groups" and "Requests and messages". */
export const sharingApi = {
  policies: async (signal?: AbortSignal) => (await typedApi.get('/api/policies', { signal })).results,
  createPolicy: (body: PolicyInput) => typedApi.post('/api/policies', body),
  updatePolicy: (policyId: string, body: PolicyInput) => typedApi.put('/api/policies/{id}', body, { params: { id: policyId } }),
  deletePolicy: (policyId: string) => typedApi.delete('/api/policies/{id}', { params: { id: policyId } }),

  groups: (record?: string, signal?: AbortSignal) => typedApi.get('/api/groups', { query: { record }, signal }),
  createGroup: (body: GroupInput & { groupName: string }) => typedApi.post('/api/groups', body),
  updateGroup: (groupId: string, body: GroupInput) => typedApi.put('/api/groups/{id}', body, { params: { id: groupId } }),
  deleteGroup: (groupId: string) => typedApi.delete('/api/groups/{id}', { params: { id: groupId } }),

  sent: (signal?: AbortSignal) => typedApi.get('/api/requests/sent_requests', { signal }),
  received: (signal?: AbortSignal) => typedApi.get('/api/requests/received_requests', { signal }),
  request: (requestId: string, signal?: AbortSignal) => typedApi.get('/api/requests/{id}', { params: { id: requestId }, signal }),
  openRequest: (record: string) => typedApi.post('/api/requests', { record, status: 'new' }),
  updateRequest: (requestId: string, body: RequestUpdate) => typedApi.put('/api/requests/{id}', body, { params: { id: requestId } }),
  messages: (requestId: string, signal?: AbortSignal) => typedApi.get('/api/request-messages', { query: { request: requestId }, signal }),
  postMessage: (requestId: string, message: string) => typedApi.post('/api/request-messages', { request: requestId, message }),
  /** What waits for the caller: received requests to decide, messages of the other side not yet read. */
  attention: (signal?: AbortSignal) => typedApi.get('/api/requests/attention', { signal }),
  /** The caller read the thread up to this message (or all of it). */
  markRead: (requestId: string, messageId?: string) => typedApi.post('/api/request-messages/read', { request: requestId, message: messageId }),
  /** The record a request is about, as its details page reads it (its download_url says whether the caller may download). */
  record: (recordId: string, signal?: AbortSignal) => typedApi.get('/api/records/{id}', { params: { id: recordId }, signal }),
  /** The short-lived signed link of the record's data (the details page's Download). */
  downloadLink: (recordId: string) => typedApi.get('/api/records/{id}/download', { params: { id: recordId } }),
  audit: (recordId: string, signal?: AbortSignal) => typedApi.get('/api/requests/audit', { query: { record: recordId }, signal }),
};
