import { type Job, type JobSide, jobView, withheldReason } from './job';

const NOW = new Date('2026-11-29T12:00:00.000Z');
const side = (name: string, overrides: Partial<JobSide> = {}): JobSide => ({
  id: `id-${name}`,
  name,
  removed: false,
  terms: null,
  requestId: null,
  grant: null,
  ...overrides,
});
const approved = (expiresAt: Date | null = null) => ({ status: 'approved', expiresAt });
const job = (type: Job['type'], left: JobSide, right: JobSide): Job => ({
  jobId: 'job-1',
  type,
  ownerId: 'b',
  info: '',
  left,
  right,
  progress: { current: 1, total: 1 },
  status: 'done',
  resultRecordId: type === 'MERGE' ? 'merged' : null,
  matches: [{ fieldsA: ['ssn'], fieldsB: ['ssn'], rowA: 0, rowB: 1, rows_match_prob: 1 }],
  totRows: { left: 1, right: 2 },
  harvest: null,
  createdAt: NOW,
  completedAt: NOW,
});

/** The rule alone (the API suite, link-grants.api.spec.ts, drives it with events on PostgreSQL). */
describe("a LINK job's row pairs follow the grants its records were read under", () => {
  it('follows only grant sides, by their very request: approved and not past its expiry', () => {
    const granted = (grant: JobSide['grant']) => job('LINK', side('a', { terms: 'own' }), side('b', { terms: 'grant', requestId: 'r1', grant }));
    expect(withheldReason(granted(approved()), NOW)).toBeNull();
    expect(withheldReason(granted(approved(new Date(NOW.getTime() + 1))), NOW)).toBeNull();
    const ended = 'The access grant on "b" has ended: the links made under it are no longer shown.';
    for (const grant of [
      approved(NOW),
      approved(new Date(NOW.getTime() - 1)),
      { status: 'revoked', expiresAt: null },
      { status: 'closed', expiresAt: null },
      null,
    ]) {
      expect(withheldReason(granted(grant), NOW)).toBe(ended);
    }
    // own, public, open and terms from before lineage are not followed, whatever request they name.
    for (const terms of ['own', 'public', 'open', null] as const) {
      expect(
        withheldReason(job('LINK', side('a', { terms }), side('b', { terms, requestId: 'r1', grant: { status: 'revoked', expiresAt: null } })), NOW),
      ).toBeNull();
    }
  });

  it('leaves MERGE jobs alone: their one result is a record whose download the catalogue follows', () => {
    const merge = job('MERGE', side('a', { terms: 'grant', requestId: 'r1' }), side('b'));
    expect(withheldReason(merge, NOW)).toBeNull();
    expect(jobView(merge, true, NOW).content).toMatchObject({ result_record_id: 'merged', withheld: null });
  });

  it('empties the view, not the job, and names both records when both grants ended', () => {
    const both = job(
      'LINK',
      side('gdp', { terms: 'grant', requestId: 'r1' }),
      side('pop', { terms: 'grant', requestId: 'r2', grant: { status: 'revoked', expiresAt: null } }),
    );
    expect(jobView(both, true, NOW).content).toMatchObject({
      matches: [],
      total_matches: 0,
      withheld: 'The access grants on "gdp" and "pop" have ended: the links made under them are no longer shown.',
    });
    expect(jobView(both, false, NOW).content).not.toHaveProperty('matches');
    expect(both.matches).toHaveLength(1);
    const open = job('LINK', side('gdp', { terms: 'own' }), side('pop', { terms: 'grant', requestId: 'r2', grant: approved() }));
    expect(jobView(open, true, NOW).content).toMatchObject({ total_matches: 1, withheld: null, matches: open.matches });
  });
});
