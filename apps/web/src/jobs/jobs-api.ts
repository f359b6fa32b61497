import { type ResponseOf, typedApi } from '../api/typed';

/** Spec section 9: joining, link-rows and the merge calls time out after 60 s. */
export const JOINING_TIMEOUT_MS = 60_000;

/** One pair of mergeable fields, as the merge scan (get-merge-relations) answers it and merge-features takes it. */
export type MergeCandidate = ResponseOf<'/api/relations/get-merge-relations', 'post'>['merge_relations'][number];

/** Spec section 3, Job: a LINK or MERGE job of the caller, typed from the OpenAPI document. */
export type Job = ResponseOf<'/api/tasks/job-content', 'post'>;
export type JobType = Job['type'];
export type JobContent = Job['content'];
export type JobsPage = ResponseOf<'/api/tasks/jobs-list', 'post'>;
export type MergeType = 'horizontal' | 'vertical';

/**
 * The answer of `merge-features`, `merge-enc-cols` and `link-records`: what could not be merged
 * (nodata: no access; nottabular: not tabular; nomatches: no matching values), the jobs started,
 * and the spec's texts saying so.
 */
export type MergeFeaturesResult = ResponseOf<'/api/relations/merge-features', 'post'>;
/** merge-preview: per pair of records, the new record's name, its columns and its rows, before the merge starts. */
export type MergePreview = ResponseOf<'/api/relations/merge-preview', 'post'>['previews'][number];
/** A column of the left record paired with one of the right record, for linking. */
export interface ColumnPair {
  header_left: string;
  header_right: string;
}

/** The newest jobs a list shows (the registry pages its answer). */
const JOBS_SHOWN = 100;

export const jobsApi = {
  /** POST /api/tasks/jobs-list/: every job of the caller, or only the active ones. */
  list: async (activeOnly: boolean, signal?: AbortSignal): Promise<Job[]> =>
    (await typedApi.post('/api/tasks/jobs-list', { ...(activeOnly && { active_flag: true }), page_size: JOBS_SHOWN }, { signal })).results,
  /** job-content: the job with its content (a LINK job's matched row pairs). */
  content: async (jobId: string, signal?: AbortSignal): Promise<JobContent> =>
    (await typedApi.post('/api/tasks/job-content', { job: jobId }, { signal })).content,
  remove: (jobId: string) => typedApi.post('/api/tasks/job-delete', { job: jobId }),
  /** Starts MERGE jobs for the chosen field pairs (one job per pair of records). */
  mergeFeatures: (mergeRelations: MergeCandidate[], mergeType: MergeType) =>
    typedApi.post('/api/relations/merge-features', { merge_relations: mergeRelations, merge_type: mergeType }, { timeoutMs: JOINING_TIMEOUT_MS }),
  /** The linking result's merge button: merges two records on the hashed columns they share. */
  mergeHashedColumns: (left: string, right: string, mergeType: MergeType = 'horizontal') =>
    typedApi.post('/api/relations/merge-enc-cols', { record_left: left, record_right: right, merge_type: mergeType }, { timeoutMs: JOINING_TIMEOUT_MS }),
  /** Link Datasets: a LINK job, row pairs of two records matched on their hashed columns. */
  link: (left: string, right: string, pairs?: ColumnPair[]) =>
    typedApi.post('/api/relations/link-records', { record_left: left, record_right: right, ...(pairs && { pairs }) }, { timeoutMs: JOINING_TIMEOUT_MS }),
  /** What Merge Horizontal or Merge Vertical would make of the chosen pairs, without starting it. */
  preview: async (mergeRelations: MergeCandidate[], mergeType: MergeType, signal?: AbortSignal) =>
    typedApi.post('/api/relations/merge-preview', { merge_relations: mergeRelations, merge_type: mergeType }, { timeoutMs: JOINING_TIMEOUT_MS, signal }),
  /** The name of a finished merge's new record (404 until the catalogue has made it). */
  recordName: async (recordId: string, signal?: AbortSignal) => (await typedApi.get('/api/records/{id}', { params: { id: recordId }, signal })).name,
};
