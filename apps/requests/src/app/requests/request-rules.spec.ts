import { REQUEST_STATUSES, RequestStatus } from '@dc/contracts';
import { authUser } from '@dc/testing';
import { applyAnswers, canSee, parseExpiry, refusalToMove, unanswered } from './request-rules';

describe('request rules', () => {
  it('allows exactly the moves of spec section 4 (plus revoking an approval), each to its party', () => {
    const allowed: string[] = [];
    for (const party of ['requestor', 'reviewer'] as const) {
      for (const from of REQUEST_STATUSES) for (const to of REQUEST_STATUSES) if (!refusalToMove(party, from, to)) allowed.push(`${party}: ${from} -> ${to}`);
    }
    expect(allowed.sort()).toEqual(
      [
        'requestor: new -> new',
        'requestor: new -> sent',
        'requestor: new -> closed',
        'requestor: sent -> closed',
        'requestor: review -> closed',
        'requestor: approved -> closed',
        'requestor: disapproved -> closed',
        'requestor: revoked -> closed',
        'reviewer: sent -> review',
        'reviewer: review -> approved',
        'reviewer: review -> disapproved',
        'reviewer: approved -> revoked',
      ].sort(),
    );
  });

  it("says 403 for the other party's statuses, 400 for a wrong moment, and that closed is final", () => {
    expect(refusalToMove('requestor', 'review', 'approved')).toEqual({ status: 403, message: 'You do not have permission to perform this action.' });
    expect(refusalToMove('reviewer', 'sent', 'closed')?.status).toBe(403);
    expect(refusalToMove('reviewer', 'sent', 'approved')).toEqual({ status: 400, message: 'A request in status sent cannot become approved.' });
    for (const to of REQUEST_STATUSES)
      expect(refusalToMove('requestor', 'closed', to as RequestStatus)).toEqual({ status: 400, message: 'This request is closed and cannot be reopened.' });
  });

  it("applies answers to the request's requirements only", () => {
    const policy = unanswered({ id: 'p1', name: 'Terms', fields: [{ topic: 'Use', requirement: 'Research only', agree: 'yes' }] });
    const { policies, errors } = applyAnswers(
      [policy],
      [
        {
          id: 'p1',
          json_content: [
            { object: 'Use', requirement: 'Research only', agree: 'yes' },
            { object: 'Use', requirement: 'Resale', agree: 'no' },
          ],
        },
      ],
    );
    expect(errors).toEqual(['"Use: Resale" is not a requirement of the policy "Terms".']);
    expect(policies[0].items).toEqual([{ object: 'Use', requirement: 'Research only', agree: 'yes', expected: 'yes' }]);
    expect(policy.items[0].agree).toBe('');
  });

  it('reads an expiry date as the end of that day (UTC), in the future only', () => {
    const now = new Date('2030-06-01T12:00:00Z');
    expect(parseExpiry('2030-06-01', now)).toEqual({ expiresAt: new Date('2030-06-01T23:59:59.999Z') });
    expect(parseExpiry('2030-06-01T11:00:00Z', now)).toEqual({ error: 'The expiry must be in the future.' });
    expect(parseExpiry('', now)).toEqual({ expiresAt: null });
    expect(parseExpiry('June', now)).toEqual({ error: 'Enter a date (YYYY-MM-DD) or a date and time.' });
  });

  it('lets nobody but its owner see (and so request) an owner-only record (lineage), whatever its visibility', () => {
    const user = (id: string, organisationId: string, groups: number[]) => authUser({ id, username: id, organisationId, clientType: 'STANDARD', groups });
    const derived = {
      ownerId: 'maker',
      organisationId: 'org-m',
      visibility: 'EV' as const,
      sharedUserIds: ['guest'],
      sharedOrganisationIds: [],
      access: 'OP' as const,
      ownerOnly: true,
    };
    expect(canSee(derived, user('maker', 'org-m', [3]))).toBe(true);
    for (const other of [user('admin', 'org-m', [2]), user('colleague', 'org-m', [3]), user('guest', 'org-x', [3])])
      expect([other.id, canSee(derived, other)]).toEqual([other.id, false]);
    expect(canSee({ ...derived, ownerOnly: false }, user('guest', 'org-x', [3]))).toBe(true);
  });
});
