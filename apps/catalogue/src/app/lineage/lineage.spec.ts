import { canViewRecord, permissionsOfGroups, recordPermissions, type RecordAccessFacts, type RecordViewer, sourceTermsFor } from '@dc/contracts';
import {
  closedBecause,
  grantEndedBecause,
  isRestricted,
  type LineageLink,
  linksOfDerivative,
  removedBecause,
  revokedBecause,
  strongestTerms,
  whyLinkBlocks,
  wideningRefused,
} from './lineage';

const viewer = (id: string, organisationId: string, groups: number[] = [3]): RecordViewer => ({
  id,
  organisationId,
  groups,
  permissions: permissionsOfGroups(groups),
});
const alice = viewer('alice', 'org-a');
const aliceAdmin = viewer('alice-admin', 'org-a', [2]);
const bruno = viewer('bruno', 'org-b');
const brunoAdmin = viewer('bruno-admin', 'org-b', [1, 2, 3]);
const record = (facts: Partial<RecordAccessFacts> = {}): RecordAccessFacts => ({
  ownerId: 'alice',
  organisationId: 'org-a',
  visibility: 'PR',
  sharedUserIds: [],
  sharedOrganisationIds: [],
  access: 'RE',
  ...facts,
});
const now = new Date('2030-01-01T00:00:00Z');
const link = (overrides: Partial<LineageLink> = {}): LineageLink => ({
  derivedRecordId: 'd1',
  sourceRecordId: 's1',
  sourceName: 'Rainfall',
  makerId: 'bruno',
  terms: 'grant',
  requestId: 'req-1',
  viaRecordId: null,
  createdAt: now,
  revokedAt: null,
  ...overrides,
});

describe('terms a maker reads a source under (sourceTermsFor)', () => {
  it('own: the owner, and Data Admins of its organisation; public: Everyone and Open; open: Open to the maker only; grant: the rest', () => {
    expect(sourceTermsFor(record(), alice)).toBe('own');
    expect(sourceTermsFor(record(), aliceAdmin)).toBe('own');
    expect(sourceTermsFor(record({ visibility: 'EV', access: 'OP' }), bruno)).toBe('public');
    expect(sourceTermsFor(record({ visibility: 'CU', sharedUserIds: ['bruno'], access: 'OP' }), bruno)).toBe('open');
    expect(sourceTermsFor(record({ visibility: 'EV', access: 'RE' }), bruno)).toBe('grant');
    // A Data Admin of another organisation is nobody special here.
    expect(sourceTermsFor(record({ visibility: 'EV', access: 'RE' }), brunoAdmin)).toBe('grant');
  });

  it("an owner-only derivative is its owner's own, and nobody else's to read openly", () => {
    const derivative = record({ ownerId: 'bruno', organisationId: 'org-b', visibility: 'EV', access: 'OP', ownerOnly: true });
    expect(sourceTermsFor(derivative, bruno)).toBe('own');
    expect(sourceTermsFor(derivative, brunoAdmin)).toBe('grant');
  });
});

describe('an owner-only record (canViewRecord, recordPermissions)', () => {
  it('is seen, edited and downloaded by its owner alone: not by Data Admins, colleagues, listed users or anonymous visitors', () => {
    const derivative = record({ ownerId: 'bruno', organisationId: 'org-b', visibility: 'CU', sharedUserIds: ['alice'], access: 'OP', ownerOnly: true });
    expect(recordPermissions(derivative, bruno)).toMatchObject({ view: true, edit: true, delete: true, download: true });
    for (const other of [brunoAdmin, viewer('colleague', 'org-b'), alice, null])
      expect(recordPermissions(derivative, other)).toMatchObject({ view: false, edit: false, download: false });
    expect(canViewRecord({ ...derivative, visibility: 'EV' }, null)).toBe(false);
  });
});

describe('links of a derivative (linksOfDerivative)', () => {
  it('links each source read directly, and passes on the links of a source that is a derivative, revocations included', () => {
    const earlier = [
      link({ derivedRecordId: 'd1', sourceRecordId: 's1', revokedAt: now }),
      link({ derivedRecordId: 'd1', sourceRecordId: 's2', terms: 'open', requestId: null }),
    ];
    const links = linksOfDerivative(
      'd2',
      'bruno',
      now,
      [
        { recordId: 'd1', name: 'Merge of Rainfall', terms: 'own', requestId: null },
        { recordId: 'x', name: 'Own data', terms: 'own', requestId: null },
      ],
      earlier,
    );
    expect(links.map((l) => [l.sourceRecordId, l.terms, l.viaRecordId, !!l.revokedAt, l.derivedRecordId, l.makerId])).toEqual([
      ['d1', 'own', null, false, 'd2', 'bruno'],
      ['s1', 'grant', 'd1', true, 'd2', 'bruno'],
      ['s2', 'open', 'd1', false, 'd2', 'bruno'],
      ['x', 'own', null, false, 'd2', 'bruno'],
    ]);
    expect(isRestricted(links)).toBe(true);
    // A source reached twice on the same terms is linked once, its revocation kept.
    const twice = linksOfDerivative(
      'd3',
      'bruno',
      now,
      [
        { recordId: 's1', name: 'Rainfall', terms: 'grant', requestId: 'req-1' },
        { recordId: 'd1', name: 'Merge of Rainfall', terms: 'own', requestId: null },
      ],
      earlier,
    );
    expect(twice.map((l) => [l.sourceRecordId, l.viaRecordId, !!l.revokedAt])).toEqual([
      ['s1', null, true],
      ['d1', null, false],
      ['s2', 'd1', false],
    ]);
    expect(isRestricted(links.filter((l) => l.terms === 'own'))).toBe(false);
    expect(isRestricted([{ terms: 'public' }])).toBe(false);
  });
});

describe('whether a link still lets the derivative be downloaded (whyLinkBlocks)', () => {
  const source = record({ visibility: 'EV', access: 'RE' });
  const makerNow = viewer('bruno', 'org-b');

  it('a grant holds while the very request it was made under grants download', () => {
    expect(whyLinkBlocks(link(), { source, maker: makerNow, activeRequestId: 'req-1' })).toBeNull();
    expect(whyLinkBlocks(link(), { source, maker: makerNow, activeRequestId: null })).toBe(grantEndedBecause('"Rainfall"'));
    expect(whyLinkBlocks(link(), { source, maker: makerNow, activeRequestId: 'req-2' })).toBe(grantEndedBecause('"Rainfall"'));
    expect(whyLinkBlocks(link({ requestId: null }), { source, maker: makerNow, activeRequestId: null })).toBe(grantEndedBecause('"Rainfall"'));
    expect(grantEndedBecause('"Rainfall"')).toBe('This record was made from "Rainfall", whose access grant has ended; its data can no longer be downloaded.');
  });

  it('open holds while the source is Open and visible to the maker', () => {
    const shared = record({ visibility: 'CU', sharedUserIds: ['bruno'], access: 'OP' });
    const open = link({ terms: 'open', requestId: null });
    expect(whyLinkBlocks(open, { source: shared, maker: makerNow, activeRequestId: null })).toBeNull();
    expect(whyLinkBlocks(open, { source: { ...shared, access: 'RE' }, maker: makerNow, activeRequestId: null })).toBe(closedBecause('"Rainfall"'));
    expect(whyLinkBlocks(open, { source: { ...shared, sharedUserIds: [] }, maker: makerNow, activeRequestId: null })).toBe(closedBecause('"Rainfall"'));
    expect(whyLinkBlocks(open, { source: shared, maker: null, activeRequestId: null })).toBe(closedBecause('"Rainfall"'));
  });

  it('a removed source or a revoked link blocks; own and public links hold unless revoked', () => {
    expect(whyLinkBlocks(link(), { source: null, maker: makerNow, activeRequestId: 'req-1' })).toBe(removedBecause('"Rainfall"'));
    expect(whyLinkBlocks(link({ revokedAt: now }), { source, maker: makerNow, activeRequestId: 'req-1' })).toBe(revokedBecause('"Rainfall"'));
    for (const terms of ['own', 'public'] as const) {
      expect(whyLinkBlocks(link({ terms }), { source: null, maker: null, activeRequestId: null })).toBeNull();
      expect(whyLinkBlocks(link({ terms, revokedAt: now }), { source, maker: makerNow, activeRequestId: null })).toBe(revokedBecause('"Rainfall"'));
    }
  });
});

describe('messages and summaries', () => {
  it('names each restricting source once, with why, when widening is refused', () => {
    const message = wideningRefused([
      link(),
      link({ sourceName: 'Rainfall', requestId: 'req-9' }),
      link({ sourceName: 'Tides', terms: 'open' }),
      link({ sourceName: 'Mine', terms: 'own' }),
    ]);
    expect(message).toBe(
      'This record was made from "Rainfall" (shared with you through your approved request), "Tides" (open to you, not to everyone): data shared with you alone stays yours alone, so its visibility and access cannot be widened.',
    );
  });

  it('sums up a derivative by the terms that restrict it most', () => {
    expect(strongestTerms(['own', 'grant', 'open'])).toBe('grant');
    expect(strongestTerms(['public', 'own'])).toBe('public');
  });
});
