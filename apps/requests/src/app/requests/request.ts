import type { RequestStatus } from '@dc/contracts';

/** A requirement of the record's policy as the request holds it (spec: json_content items). */
export interface PolicyItem {
  /** The topic. */
  object: string;
  requirement: string;
  /** The requestor's answer; '' until answered. */
  agree: 'yes' | 'no' | '';
  /** The answer the policy asks for. */
  expected: 'yes' | 'no';
}

/** The record's policy when the request was opened, with the requestor's answers. */
export interface RequestPolicy {
  id: string;
  name: string;
  items: PolicyItem[];
}

/** An access request (spec section 3, Request). */
export interface AccessRequest {
  id: string;
  recordId: string;
  requestorId: string;
  requestorOrganisationId: string;
  status: RequestStatus;
  purpose: string;
  note: string;
  accessPolicies: RequestPolicy[];
  createdAt: Date;
  changedAt: Date;
  sentAt: Date | null;
  decidedAt: Date | null;
  decidedBy: string | null;
  /** approved only: when the grant ends (null: until revoked or closed). */
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokeReason: string | null;
  version: number;
}

/** A message of a request's thread (spec section 3, Request message). */
export interface RequestMessage {
  id: string;
  requestId: string;
  userId: string;
  message: string;
  createdAt: Date;
}
