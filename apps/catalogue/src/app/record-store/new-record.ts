import { randomUUID } from 'node:crypto';
import type { ClientType } from '@dc/platform';
import type { NewRecord } from './records.repository';

/** Where a new record starts: BASIC clients' records are always visible to everyone, others' private. */
export const initialVisibility = (clientType: ClientType): NewRecord['visibility'] => (clientType === 'BASIC' ? 'EV' : 'PR');

/** A new record's first version: created and changed now, with its own visibility id, shared with nobody, in no project. */
export function firstVersion(
  now: Date,
  visibility: NewRecord['visibility'],
): Pick<NewRecord, 'version' | 'createdAt' | 'changedAt' | 'visibility' | 'visibilityId' | 'sharedUserIds' | 'sharedOrganisationIds' | 'groupIds'> {
  return { version: 1, createdAt: now, changedAt: now, visibility, visibilityId: randomUUID(), sharedUserIds: [], sharedOrganisationIds: [], groupIds: [] };
}

/** The terms of a record its maker did not describe (indexed at its source, made by a merge): on request, no policy, fee or fields. */
export function defaultTerms(): Pick<NewRecord, 'policyId' | 'access' | 'accessFee' | 'currency' | 'recordFields' | 'extractFromUrl' | 'deleteFile'> {
  return { policyId: null, access: 'RE', accessFee: null, currency: 'CAD', recordFields: [], extractFromUrl: false, deleteFile: false };
}
