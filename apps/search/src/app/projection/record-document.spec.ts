import type { RecordSnapshot } from '@dc/contracts';
import { toDocument, withOrganisationName, withOwnerName } from './record-document';

const record: RecordSnapshot = {
  recordId: 'r-1',
  name: 'River flow',
  altName: 'Discharge',
  description: 'Daily',
  provenance: 'gauges',
  source: 'https://example.org',
  ownerId: 'u-1',
  ownerUsername: 'ada',
  organisationId: 'o-1',
  organisationName: 'Hydro Lab',
  visibility: 'CU',
  sharedWithUserIds: ['u-2'],
  sharedWithOrganisationIds: ['o-2'],
  groupIds: ['g-1', 'g-2'],
  projects: [{ id: 'g-2', organisationId: 'o-9' }],
  access: 'RE',
  ownerOnly: false,
  derivedFrom: [],
  accessFee: 12.5,
  currency: 'EUR',
  policyId: 'p-1',
  origin: 'upload',
  type: 'text/csv',
  size: 2048,
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  changedAt: '2026-01-02T00:00:00.000Z',
  headers: ['date', 'flow'],
  words: ['river'],
  totalRows: 365,
  encryptedHeaders: ['email'],
  files: [{ fileId: 'f-1', name: 'a.csv', contentType: 'text/csv', size: 2048, checksum: 'x', extractionStatus: 'done' }],
};

describe('toDocument', () => {
  it('keeps the searched, filtered and card fields of a record snapshot, its projects as keys of their organisations', () => {
    expect(toDocument(record)).toEqual({
      id: 'r-1',
      name: 'River flow',
      altName: 'Discharge',
      description: 'Daily',
      headers: ['date', 'flow'],
      words: ['river'],
      ownerId: 'u-1',
      organisationId: 'o-1',
      visibility: 'CU',
      sharedWithUserIds: ['u-2'],
      sharedWithOrganisationIds: ['o-2'],
      groupIds: ['o-1/g-1', 'o-9/g-2'],
      createdAt: '2026-01-01T00:00:00.000Z',
      changedAt: '2026-01-02T00:00:00.000Z',
      card: {
        user: 'ada',
        organisation: { id: 'o-1', name: 'Hydro Lab' },
        origin: 'upload',
        type: 'text/csv',
        size: 2048,
        version: 3,
        access: 'RE',
        accessFee: 12.5,
        currency: 'EUR',
        policy: 'p-1',
        total_rows: 365,
        file_count: 1,
        enc_headers: ['email'],
      },
    });
  });

  it('marks an owner-only record (lineage), so the index shows it to its owner alone', () => {
    expect(toDocument({ ...record, ownerOnly: true }).ownerOnly).toBe(true);
    expect(toDocument(record)).not.toHaveProperty('ownerOnly');
  });

  it('leaves out an empty alternate name', () => {
    expect(toDocument({ ...record, altName: '' }).altName).toBeUndefined();
  });

  it('shows the names identity last announced over the copies in the snapshot', () => {
    expect(toDocument(record, { username: 'ada.lovelace', organisationName: 'Hydrology Institute' }).card).toMatchObject({
      user: 'ada.lovelace',
      organisation: { id: 'o-1', name: 'Hydrology Institute' },
    });
    expect(toDocument(record, { username: 'ada.lovelace' }).card).toMatchObject({ user: 'ada.lovelace', organisation: { name: 'Hydro Lab' } });
  });
});

describe('renaming cards', () => {
  const doc = toDocument(record);

  it('puts a new username or organisation name on the card and leaves the rest', () => {
    expect(withOwnerName(doc, 'ada.l')).toEqual({ ...doc, card: { ...doc.card, user: 'ada.l' } });
    expect(withOrganisationName(doc, 'Hydrology')).toEqual({ ...doc, card: { ...doc.card, organisation: { id: 'o-1', name: 'Hydrology' } } });
  });

  it('says when the card already shows the name (nothing to rewrite)', () => {
    expect(withOwnerName(doc, 'ada')).toBeNull();
    expect(withOrganisationName(doc, 'Hydro Lab')).toBeNull();
  });
});
