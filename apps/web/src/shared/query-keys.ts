/**
 * The react-query keys, one factory per feature. They sit here, below every feature, because the
 * features invalidate each other's data (a request changes a record's details and the records
 * list; a record's edit changes the projects). Each factory's `all` is the prefix of its keys, so
 * invalidating it reaches every key of that feature.
 */

/** The signed-in caller's account (GET /api/account/user-account/). */
export const accountKeys = {
  all: ['user-account'] as const,
  /** The token is part of the key so signing in or out never shows the other session's account. */
  session: (token: string | null) => [...accountKeys.all, token] as const,
};

export const identityKeys = {
  all: ['identity'] as const,
  organisation: (id: string | number) => [...identityKeys.all, 'organisation', id] as const,
  accounts: ['identity', 'accounts'] as const,
  apiKeys: ['identity', 'api-keys'] as const,
};

export const recordKeys = {
  all: ['records'] as const,
  /** Every Workspace list, whatever its search. */
  lists: () => [...recordKeys.all, 'list'] as const,
  /** The token is part of the key so signing in or out never shows the other session's list. */
  list: (token: string | null, search: object) => [...recordKeys.lists(), token, search] as const,
  detail: (id: string) => [...recordKeys.all, 'detail', id] as const,
  /** A record's short-lived signed download link (read afresh at each click). */
  download: (id: string) => [...recordKeys.all, 'download', id] as const,
  visibility: (id: string) => [...recordKeys.all, 'visibility', id] as const,
  accessOptions: ['records', 'access-options'] as const,
  autofill: (label: string, text: string) => [...recordKeys.all, 'autofill', label, text] as const,
};

export const sharingKeys = {
  all: ['sharing'] as const,
  policies: ['sharing', 'policies'] as const,
  /** Every groups list, the record-scoped ones included. */
  groups: ['sharing', 'groups'] as const,
  /** The groups (projects) of the organisation, each marked for a record when one is given. */
  groupList: (record?: string) => [...sharingKeys.groups, record ?? null] as const,
  requests: ['sharing', 'requests'] as const,
  sent: ['sharing', 'requests', 'sent'] as const,
  received: ['sharing', 'requests', 'received'] as const,
  request: (requestId: string) => [...sharingKeys.requests, 'one', requestId] as const,
  /** What waits for the caller (side menu count); under requests, so invalidating those reaches it. */
  attentionAll: ['sharing', 'requests', 'attention'] as const,
  /** The token is part of the key so signing in or out never shows the other session's count. */
  attention: (token: string | null) => [...sharingKeys.attentionAll, token] as const,
  messages: (requestId: string) => [...sharingKeys.all, 'messages', requestId] as const,
  audit: (recordId: string) => [...sharingKeys.all, 'audit', recordId] as const,
};

export const jobKeys = {
  all: ['jobs'] as const,
  list: (activeOnly: boolean) => [...jobKeys.all, 'list', activeOnly] as const,
  content: (jobId: string) => [...jobKeys.all, 'content', jobId] as const,
  /** What a merge of these field pairs would make (merge-preview), before it starts. */
  preview: (mergeType: string, pairs: string[]) => [...jobKeys.all, 'preview', mergeType, ...pairs] as const,
  /** The name of a finished merge's new record, for the announcement. */
  resultName: (recordId: string) => [...jobKeys.all, 'result-name', recordId] as const,
  /** When this page last started a job (not a server query: a mark the lists' polling reads). */
  started: ['job-started'] as const,
  /** Jobs this page started whose end is still to be announced (not a server query, and not under `all`: no refetch clears it). */
  watched: ['job-watched'] as const,
  /** Ended jobs announced until dismissed (kept here, not in a component: the announcement survives the work area moving between the side and the bottom bar). */
  ended: ['job-ended'] as const,
};

export type RelationKind = 'semantics' | 'structures' | 'statistics' | 'joining' | 'linkability';

export const relationKeys = {
  all: ['relations'] as const,
  /** The records whose columns the link dialog pairs, while it is open (not a server query). */
  linkColumnsRequest: ['link-columns-request'] as const,
  /** The two records the compare dialog shows, while it is open (not a server query). */
  comparing: ['compare-dialog-records'] as const,
  joinableWith: (recordId: string) => [...relationKeys.all, 'joinable-with', recordId] as const,
  topRelated: (recordId: string) => [...relationKeys.all, 'top-related', recordId] as const,
  definition: (word: string | null) => [...relationKeys.all, 'definition', word] as const,
  /** One relation of two records, computed with these parameters (the semantic range). */
  compare: (kind: RelationKind, left: string, right: string, params: object | null) => [...relationKeys.all, 'compare', kind, left, right, params] as const,
};

export const sourceKeys = {
  all: ['sources'] as const,
  connections: ['sources', 'connections'] as const,
  tables: (connectionId: string) => [...sourceKeys.all, 'connection', connectionId, 'tables'] as const,
  preview: (connectionId: string, table: string) => [...sourceKeys.all, 'connection', connectionId, 'preview', table] as const,
  cloudAccounts: ['sources', 'cloud-accounts'] as const,
};
