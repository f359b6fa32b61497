import { z } from 'zod';
import { grantIsActive, REQUEST_STATUSES } from '@dc/contracts';
import { isoDateTime } from '@dc/platform';
import type { Organisation } from '../directory/directory.repository';
import type { KnownRecord } from '../records/records.repository';
import type { AccessRequest } from './request';
import type { Party } from './request-rules';

export interface ViewNames {
  record: KnownRecord | null;
  requestorUsername: string;
  requestorOrganisation: Organisation | null;
  ownerUsername: string;
  decidedByUsername: string | null;
}

const answer = z.enum(['yes', 'no']);

/** A request as the API answers it (the OpenAPI document's schema). */
export const requestViewSchema = z.object({
  id: z.string(),
  record: z.string(),
  record_name: z.string(),
  record_deleted: z.boolean(),
  requestor: z.string(),
  requestor_id: z.string(),
  requestor_org_name: z.string(),
  requestor_org_desc: z.string(),
  status: z.enum(REQUEST_STATUSES),
  purpose: z.string(),
  note: z.string(),
  data_admin: z.string().describe("the record's owner"),
  created: isoDateTime,
  changed: isoDateTime,
  sent: isoDateTime.nullable(),
  decided: isoDateTime.nullable(),
  decided_by: z.string().nullable(),
  expires_at: isoDateTime.nullable(),
  expired: z.boolean().describe('an approval past its expiry no longer grants download'),
  revoked_at: isoDateTime.nullable(),
  revoke_reason: z.string().nullable(),
  access_policies: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      json_content: z.array(z.object({ object: z.string(), requirement: z.string(), agree: z.union([answer, z.literal('')]), expected: answer })),
    }),
  ),
  role: z.enum(['requestor', 'reviewer']),
});
export type RequestView = z.output<typeof requestViewSchema>;

/** The Request of spec section 3, for the party asking (role), with the grant's expiry and revocation. */
export function requestView(request: AccessRequest, party: Party, names: ViewNames, now: Date = new Date()): RequestView {
  return {
    id: request.id,
    record: request.recordId,
    record_name: names.record?.name ?? '',
    record_deleted: !names.record || names.record.deleted,
    requestor: names.requestorUsername,
    requestor_id: request.requestorId,
    requestor_org_name: names.requestorOrganisation?.name ?? '',
    requestor_org_desc: names.requestorOrganisation?.description ?? '',
    status: request.status,
    purpose: request.purpose,
    note: request.note,
    /** The record's data administrator: its owner. */
    data_admin: names.ownerUsername,
    created: request.createdAt.toISOString(),
    changed: request.changedAt.toISOString(),
    sent: request.sentAt?.toISOString() ?? null,
    decided: request.decidedAt?.toISOString() ?? null,
    decided_by: names.decidedByUsername,
    expires_at: request.expiresAt?.toISOString() ?? null,
    /** An approval past its expiry no longer grants download. */
    expired: request.status === 'approved' && !grantIsActive(request, now),
    revoked_at: request.revokedAt?.toISOString() ?? null,
    revoke_reason: request.revokeReason,
    access_policies: request.accessPolicies.map((p) => ({ id: p.id, name: p.name, json_content: p.items })),
    role: party,
  };
}
