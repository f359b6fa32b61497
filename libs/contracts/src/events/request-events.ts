import { z } from 'zod';
import { REQUEST_STATUSES } from '../requests';
import { defineEvent } from './registry';

/**
 * The requests service's events, and the catalogue's events about policies and downloads under a
 * grant. A request event carries the request's state after the change, so a consumer (the
 * catalogue's grant projection, search's request statuses) keeps the newest by `version`.
 */
const id = z.string().min(1);
const timestamp = z.string().datetime({ offset: true });

const requestSnapshot = z.object({
  requestId: id,
  recordId: id,
  requestorId: id,
  requestorOrganisationId: id,
  ownerId: id.describe('The record owner.'),
  organisationId: id.describe("The record owner's organisation."),
  status: z
    .enum(REQUEST_STATUSES)
    .describe('new, sent, review, approved, disapproved, closed (by the requestor), revoked (an approval withdrawn by the owner side).'),
  expiresAt: timestamp.nullable().describe('approved only: when the grant ends (null: until revoked or closed).'),
  createdAt: timestamp,
  changedAt: timestamp,
  version: z.number().int().positive().describe('Grows by one with every change of the request: consumers keep the highest.'),
});
export type RequestSnapshot = z.output<typeof requestSnapshot>;

export const RequestCreated = defineEvent('request.created', 1, 'A requestor opened an access request for a record (status new)', requestSnapshot);

export const RequestUpdated = defineEvent(
  'request.updated',
  1,
  'An access request changed status (sent, review, approved with its expiry, disapproved, revoked, closed) or its content while new',
  requestSnapshot,
);

export const RequestMessagePosted = defineEvent(
  'request.message-posted',
  1,
  'A party of an access request wrote in its message thread',
  z.object({
    requestId: id,
    messageId: id,
    recordId: id,
    authorId: id,
    createdAt: timestamp,
  }),
);

const policyRequirement = z.object({
  topic: z.string(),
  requirement: z.string(),
  agree: z.enum(['yes', 'no']).describe('The answer the requestor is asked to give.'),
});

export const PolicyUpdated = defineEvent(
  'policy.updated',
  1,
  'An access policy was created or changed (the requests service shows its requirements on the request form)',
  z.object({
    policyId: id,
    organisationId: id,
    ownerId: id,
    name: z.string(),
    fields: z.array(policyRequirement),
    createdAt: timestamp,
    changedAt: timestamp,
    version: z.number().int().positive(),
  }),
);

export const PolicyDeleted = defineEvent(
  'policy.deleted',
  1,
  'An access policy was deleted',
  z.object({
    policyId: id,
    organisationId: id,
  }),
);

export const FileDownloadGranted = defineEvent(
  'file.download-granted',
  1,
  "The catalogue issued a download of a record's stored file to a requestor under an approved request (the requests service adds it to the audit trail)",
  z.object({
    recordId: id,
    fileId: id,
    fileName: z.string(),
    userId: id,
    requestId: id,
    at: timestamp,
  }),
);
