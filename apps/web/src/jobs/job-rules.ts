import { ApiError } from '../api/client';
import type { Job, MergeFeaturesResult } from './jobs-api';

/** Jobs texts (spec section 8), kept in one place for the screens and their tests. */
export const JOB_DELETED = 'Job deleted.';
export const JOB_DELETE_FAILED = 'Job delete failed.';
export const NO_JOBS_HISTORY = 'No jobs history available';
export const NO_JOBS_FOUND = 'No jobs were found.';
export const LINK_JOB_FAILED = 'Link job data could not be loaded.';
export const MERGE_STARTED = 'New merge job was successfully initiated.';
export const MERGE_NO_DATA = 'Some data cannot be merged. Please try tabular data like CSVs, XLS, Data Tables instead.';
export const MERGE_NO_ACCESS = 'Some merges could not be completed. You do not have access to those data.';
export const MERGE_NO_MATCHES = 'Some merges had no matching values for the selected fields.';
export const LINK_STARTED = 'New link job was successfully initiated.';
export const LINK_NEEDS_TWO = 'Linking needs exactly two records in the work area, both with hashed columns.';
export const GENERAL_ERROR = 'An error occured, please try again.';

/** Spec section 9: the Jobs page polls every 10 s, records with running jobs every 3 s. */
export const JOBS_PAGE_POLL_MS = 10_000;
export const ACTIVE_JOBS_POLL_MS = 3_000;

/** "No links found between {left} and {right}" (spec section 2). */
export const noLinksText = (left: string, right: string) => `No links found between ${left} and ${right}`;
/** A source record of a job that is no longer in the product. */
export const recordRemovedText = (name: string) => `${name || 'This record'} was removed from the product.`;

/** Spec section 9: current divided by total, rounded (0 to 100). */
export function progressPercent(progress: Job['progress'] | null | undefined): number {
  if (!progress || !(progress.total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((progress.current / progress.total) * 100)));
}

/** A job that ended without its result: the spec shows only active and complete, the info says why. */
export const hasFailed = (job: Pick<Job, 'is_active' | 'failed'>) => !job.is_active && job.failed;

/** How long after starting a job the lists poll even though they do not show it yet (the registry hears of it through an event). */
export const JOB_REGISTRATION_GRACE_MS = 20_000;

/**
 * Polling while jobs run (spec section 4): the interval while any listed job is active, and none
 * (react-query's `false`) once none remains, so an idle page asks nothing. Just after this page
 * started a job it polls too, until the registry lists it.
 */
export function pollWhileActive(jobs: Job[] | undefined, intervalMs: number, startedAt?: number, now = Date.now()): number | false {
  if (jobs?.some((job) => job.is_active)) return intervalMs;
  return startedAt !== undefined && now - startedAt < JOB_REGISTRATION_GRACE_MS ? intervalMs : false;
}

/** The linking button rule (spec section 4): exactly two records, both with hashed (encrypted) headers. */
export function canLink(records: Array<{ enc_headers?: string[] | null }>): boolean {
  return records.length === 2 && records.every((record) => (record.enc_headers?.length ?? 0) > 0);
}

export interface Notice {
  type: 'success' | 'warning' | 'error';
  title: string;
}

/**
 * What a merge or link answer tells the user: what could not be merged, then the jobs started. The
 * server's texts when it sends them, otherwise the spec's texts for its flags.
 */
export function mergeNotices(result: MergeFeaturesResult, startedText = MERGE_STARTED): Notice[] {
  const started = result.newmerges.length;
  if (result.messages.length > 0)
    return result.messages.map((title) => ({ type: title === MERGE_STARTED || title === LINK_STARTED ? 'success' : 'warning', title }));
  const notices: Notice[] = [];
  if (result.nottabular) notices.push({ type: 'warning', title: MERGE_NO_DATA });
  if (result.nodata) notices.push({ type: 'warning', title: MERGE_NO_ACCESS });
  if (result.nomatches) notices.push({ type: 'warning', title: MERGE_NO_MATCHES });
  if (started > 0) notices.push({ type: 'success', title: startedText });
  return notices;
}

/** A refused merge or link: the spec's no-access text for 403, the server's words otherwise. */
export function jobErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.status === 403 ? MERGE_NO_ACCESS : error.message;
  return GENERAL_ERROR;
}
