import type { ResponseOf } from '../api/typed';
/** Shapes of the policies, groups and requests calls (spec sections 3 and 7) as the services answer them. */

export type Answer = 'yes' | 'no';

/** A requirement row of an access policy. */
export interface PolicyRequirement {
  topic: string;
  requirement: string;
  /** The answer the requestor is asked to give. */
  agree: Answer;
}

export type Policy = ResponseOf<'/api/policies/{id}', 'get'>;

export interface PolicyInput {
  policyName: string;
  policyFields: PolicyRequirement[];
}

/** A project (group): fields is a label to text map. */
export type Group = ResponseOf<'/api/groups/{id}', 'get'>;

export type GroupsAnswer = ResponseOf<'/api/groups', 'get'>;

export interface GroupInput {
  groupName?: string;
  groupDescription?: string;
  groupFields?: Array<{ label: string; text: string }>;
  addRecordIds?: string[];
  removeRecordIds?: string[];
}

export type RequestStatus = 'new' | 'sent' | 'review' | 'approved' | 'disapproved' | 'closed' | 'revoked';

/** A requirement of the record's policy inside a request (json_content). */
export interface PolicyItem {
  object: string;
  requirement: string;
  agree: Answer | '';
  expected?: Answer;
}

export interface RequestPolicy {
  id: string;
  name: string;
  json_content: PolicyItem[];
}

export type AccessRequest = ResponseOf<'/api/requests/{id}', 'get'>;

/** POST /api/requests/: the request, or a message with the existing one. */
export type OpenRequestAnswer = AccessRequest | { message: string; request: AccessRequest };

export interface RequestUpdate {
  status: RequestStatus;
  purpose?: string;
  note?: string;
  access_policies?: Array<{ id: string; json_content: PolicyItem[] }>;
  expires_at?: string | null;
  reason?: string;
}

export type RequestMessage = ResponseOf<'/api/request-messages', 'post'>;

export type AuditEntry = ResponseOf<'/api/requests/audit', 'get'>['results'][number];

export interface Listing<T> {
  count: number;
  results: T[];
}
