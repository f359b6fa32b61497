import { randomUUID } from 'node:crypto';
import type { RecordSnapshot } from '@dc/contracts';

/** Who owns a record, as its snapshot names them. */
export interface RecordOwner {
  id: string;
  username: string;
  organisationId: string;
}

/**
 * A record as the catalogue's record.created / record.updated events carry it, every field set:
 * by default a new uploaded CSV record of `owner` that everyone sees and that needs a request,
 * unshared, unpriced, without policy, files or headers, created and changed now. `overrides` win.
 */
export function testRecordSnapshot(owner: RecordOwner, overrides: Partial<RecordSnapshot> = {}): RecordSnapshot {
  const now = new Date().toISOString();
  return {
    recordId: randomUUID(),
    name: 'Rainfall 2024',
    altName: '',
    description: '',
    provenance: '',
    source: '',
    ownerId: owner.id,
    ownerUsername: owner.username,
    organisationId: owner.organisationId,
    organisationName: '',
    visibility: 'EV',
    sharedWithUserIds: [],
    sharedWithOrganisationIds: [],
    groupIds: [],
    projects: [],
    access: 'RE',
    ownerOnly: false,
    derivedFrom: [],
    accessFee: null,
    currency: 'CAD',
    policyId: null,
    origin: 'upload',
    type: 'csv',
    size: 10,
    version: 1,
    createdAt: now,
    changedAt: now,
    headers: [],
    words: [],
    totalRows: null,
    encryptedHeaders: [],
    files: [],
    ...overrides,
  };
}
