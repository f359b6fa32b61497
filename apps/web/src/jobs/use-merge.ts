import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { toaster } from '../shell/toaster';
import { jobErrorText, LINK_STARTED, mergeNotices } from './job-rules';
import { type ColumnPair, jobsApi, type MergeCandidate, type MergeFeaturesResult, type MergeType } from './jobs-api';
import { jobKeys } from '../shared/query-keys';

/** A job this page started, watched until its end is announced (FinishedJobs). */
export type WatchedJob = MergeFeaturesResult['newmerges'][number];

/** Marks the jobs as just started (to be announced when they end) and reads the jobs lists again, so their polling starts. */
function jobStarted(queryClient: QueryClient, result: MergeFeaturesResult) {
  queryClient.setQueryData(jobKeys.started, Date.now());
  if (result.newmerges.length > 0) queryClient.setQueryData<WatchedJob[]>(jobKeys.watched, (old = []) => [...old, ...result.newmerges]);
  void queryClient.invalidateQueries({ queryKey: jobKeys.all });
}

/** The answer of link-records when the two records name no hashed column alike: the user pairs them instead. */
export const needsColumnPairs = (error: unknown) => error instanceof ApiError && error.status === 400 && error.message === NO_HASHED_COLUMNS;
export const NO_HASHED_COLUMNS = 'These records have no hashed columns in common.';

/** When this page last started a job, for the lists' polling. */
export const lastJobStart = (queryClient: QueryClient) => queryClient.getQueryData<number>(jobKeys.started);

/** Starts MERGE jobs and says what happened; the jobs lists read again so their polling starts. */
export function useStartMerge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ relations, mergeType }: { relations: MergeCandidate[]; mergeType: MergeType }) => jobsApi.mergeFeatures(relations, mergeType),
    onSuccess: (result) => {
      for (const notice of mergeNotices(result)) toaster.create(notice);
      jobStarted(queryClient, result);
    },
    onError: (error) => toaster.create({ type: 'error', title: jobErrorText(error) }),
  });
}

/** The linking result's merge button: a MERGE job on the hashed columns two records share. */
export function useMergeLinked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ left, right }: { left: string; right: string }) => jobsApi.mergeHashedColumns(left, right),
    onSuccess: (result) => {
      for (const notice of mergeNotices(result)) toaster.create(notice);
      jobStarted(queryClient, result);
    },
    onError: (error) => toaster.create({ type: 'error', title: jobErrorText(error) }),
  });
}

/**
 * Starts a LINK job between two records, on the column pairs given or on the hashed columns they
 * name alike. When they name none alike, onNeedsPairs (if given) lets the user pair them instead of
 * an error.
 */
export function useStartLink(onNeedsPairs?: (records: { left: string; right: string }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ left, right, pairs }: { left: string; right: string; pairs?: ColumnPair[] }) => jobsApi.link(left, right, pairs),
    onSuccess: (result) => {
      for (const notice of mergeNotices(result, LINK_STARTED)) toaster.create(notice);
      jobStarted(queryClient, result);
    },
    onError: (error, records) => {
      if (onNeedsPairs && !records.pairs && needsColumnPairs(error)) onNeedsPairs(records);
      else toaster.create({ type: 'error', title: jobErrorText(error) });
    },
  });
}
