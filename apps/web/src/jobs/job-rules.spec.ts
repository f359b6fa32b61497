import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api/client';
import {
  ACTIVE_JOBS_POLL_MS,
  canLink,
  JOB_REGISTRATION_GRACE_MS,
  hasFailed,
  jobErrorText,
  JOBS_PAGE_POLL_MS,
  LINK_STARTED,
  MERGE_NO_ACCESS,
  MERGE_NO_DATA,
  MERGE_NO_MATCHES,
  MERGE_STARTED,
  mergeNotices,
  noLinksText,
  pollWhileActive,
  progressPercent,
} from './job-rules';
import type { Job, MergeFeaturesResult } from './jobs-api';

const job = (overrides: Partial<Job>): Job => ({
  job_id: 'j-1',
  type: 'MERGE',
  progress: { current: 0, total: 1 },
  info: '',
  is_active: true,
  status: 'active',
  failed: false,
  created: '2026-11-25T03:00:00Z',
  completed: null,
  content: {
    record_left_name: 'gdp.csv',
    record_left_id: 'l',
    record_left_removed: false,
    record_right_name: 'population.csv',
    record_right_id: 'r',
    record_right_removed: false,
    result_record_id: null,
    total_matches: 0,
    withheld: null,
    tot_rows: null,
  },
  ...overrides,
});
/** A merge or link answer (the server sends every field). */
const answer = (overrides: Partial<MergeFeaturesResult>): MergeFeaturesResult => ({
  nodata: false,
  nottabular: false,
  nomatches: false,
  newmerges: [],
  messages: [],
  ...overrides,
});
const started = (job_id: string) => ({
  job_id,
  type: 'MERGE' as const,
  record_left_id: 'l',
  record_left_name: 'gdp.csv',
  record_right_id: 'r',
  record_right_name: 'population.csv',
});

describe('job progress', () => {
  it('is current divided by total, rounded, within 0 and 100', () => {
    expect(progressPercent({ current: 1, total: 3 })).toBe(33);
    expect(progressPercent({ current: 2, total: 3 })).toBe(67);
    expect(progressPercent({ current: 5, total: 4 })).toBe(100);
    expect(progressPercent({ current: 0, total: 0 })).toBe(0);
    expect(progressPercent(null)).toBe(0);
  });

  it('tells a failed job from a complete one', () => {
    expect(hasFailed(job({ is_active: true, status: 'active', failed: false }))).toBe(false);
    expect(hasFailed(job({ is_active: false, status: 'complete', failed: true }))).toBe(true);
    expect(hasFailed(job({ is_active: false, status: 'complete', failed: false }))).toBe(false);
  });
});

describe('polling while jobs run', () => {
  it('polls at the given interval while a job is active and stops when none remains', () => {
    expect(pollWhileActive([job({ is_active: false }), job({ is_active: true })], JOBS_PAGE_POLL_MS)).toBe(10_000);
    expect(pollWhileActive([job({ is_active: true })], ACTIVE_JOBS_POLL_MS)).toBe(3_000);
    expect(pollWhileActive([job({ is_active: false })], JOBS_PAGE_POLL_MS)).toBe(false);
    expect(pollWhileActive([], JOBS_PAGE_POLL_MS)).toBe(false);
    expect(pollWhileActive(undefined, JOBS_PAGE_POLL_MS)).toBe(false);
  });

  it('polls for a while after a job was started, until the registry lists it', () => {
    expect(pollWhileActive([], ACTIVE_JOBS_POLL_MS, 1_000, 5_000)).toBe(3_000);
    expect(pollWhileActive([], ACTIVE_JOBS_POLL_MS, 1_000, 1_000 + JOB_REGISTRATION_GRACE_MS)).toBe(false);
  });
});

describe('the linking rule', () => {
  it('needs exactly two records, both with hashed headers', () => {
    const hashed = { enc_headers: ['email'] };
    expect(canLink([hashed, { enc_headers: ['id', 'name'] }])).toBe(true);
    expect(canLink([hashed, { enc_headers: [] }])).toBe(false);
    expect(canLink([hashed, {}])).toBe(false);
    expect(canLink([hashed])).toBe(false);
    expect(canLink([hashed, hashed, hashed])).toBe(false);
  });
});

describe('merge answers', () => {
  it('says what could not be merged, then that a job started', () => {
    expect(mergeNotices(answer({ newmerges: [started('a')] }))).toEqual([{ type: 'success', title: MERGE_STARTED }]);
    expect(mergeNotices(answer({ newmerges: [started('a'), started('b')], nomatches: true }))).toEqual([
      { type: 'warning', title: MERGE_NO_MATCHES },
      { type: 'success', title: MERGE_STARTED },
    ]);
    expect(mergeNotices(answer({ nottabular: true, nodata: true }))).toEqual([
      { type: 'warning', title: MERGE_NO_DATA },
      { type: 'warning', title: MERGE_NO_ACCESS },
    ]);
    expect(mergeNotices(answer({ newmerges: [started('l')] }), LINK_STARTED)).toEqual([{ type: 'success', title: LINK_STARTED }]);
  });

  it("shows the server's own texts when it sends them", () => {
    expect(mergeNotices(answer({ nodata: true, newmerges: [started('a')], messages: [MERGE_NO_ACCESS, MERGE_STARTED] }))).toEqual([
      { type: 'warning', title: MERGE_NO_ACCESS },
      { type: 'success', title: MERGE_STARTED },
    ]);
  });

  it("turns a refusal into the spec's no-access text and keeps the server's other messages", () => {
    expect(jobErrorText(new ApiError(403, {}, [], 'You do not have permission to perform this action.'))).toBe(MERGE_NO_ACCESS);
    expect(jobErrorText(new ApiError(400, {}, [], 'merge_type: Choose horizontal or vertical.'))).toBe('merge_type: Choose horizontal or vertical.');
    expect(jobErrorText(new Error('boom'))).toBe('An error occured, please try again.');
  });

  it('names both records when a link found nothing', () => {
    expect(noLinksText('gdp.csv', 'population.csv')).toBe('No links found between gdp.csv and population.csv');
  });
});
