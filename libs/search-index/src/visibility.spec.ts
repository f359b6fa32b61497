import { documentAccessKeys, EVERYONE_KEY, viewerAccessKeys } from './visibility';

describe('access keys', () => {
  const base = { ownerId: 'u1', organisationId: 'o1', sharedWithUserIds: ['u2'], sharedWithOrganisationIds: ['o2'] };

  it('grants PR to the owner and the owner’s organisation only, whatever is listed', () => {
    expect(documentAccessKeys({ ...base, visibility: 'PR' }).sort()).toEqual(['org:o1', 'user:u1']);
  });

  it('adds everyone for EV', () => {
    expect(documentAccessKeys({ ...base, visibility: 'EV' }).sort()).toEqual([EVERYONE_KEY, 'org:o1', 'user:u1']);
  });

  it('adds the listed users and organisations for CU, without duplicates or blanks', () => {
    const keys = documentAccessKeys({ ...base, visibility: 'CU', sharedWithUserIds: ['u2', 'u2', '', 'u1'], sharedWithOrganisationIds: ['o2', 'o1'] });
    expect(keys.sort()).toEqual(['org:o1', 'org:o2', 'user:u1', 'user:u2']);
  });

  it('gives anonymous visitors only the key to EV records', () => {
    expect(viewerAccessKeys(null)).toEqual([EVERYONE_KEY]);
    expect(viewerAccessKeys({ userId: 'u2', organisationId: 'o2' }).sort()).toEqual([EVERYONE_KEY, 'org:o2', 'user:u2']);
  });

  it('cannot confuse a user id with an organisation id', () => {
    expect(documentAccessKeys({ ...base, visibility: 'PR', ownerId: 'same', organisationId: 'other' })).not.toContain('org:same');
  });

  it('grants an owner-only document (lineage) to its owner alone, whatever its visibility and lists', () => {
    for (const visibility of ['PR', 'EV', 'CU'] as const) expect(documentAccessKeys({ ...base, visibility, ownerOnly: true })).toEqual(['user:u1']);
  });

  it('always grants the owner sight of their documents (the own view filters by owner alone)', () => {
    for (const visibility of ['PR', 'EV', 'CU'] as const) expect(documentAccessKeys({ ...base, visibility })).toContain('user:u1');
  });
});
