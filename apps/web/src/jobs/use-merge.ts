import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MergeCandidate } from './jobs-api';
import { toaster } from '../shell/toaster';
import { jobErrorText, LINK_STARTED, mergeNotices } from './job-rules';
import { jobsApi, type MergeType } from './jobs-api';
import { jobKeys } from '../shared/query-keys';

/** Marks a job as just started and reads the jobs lists again, so their polling starts. */
function jobStarted(queryClient: QueryClient) {
  queryClient.setQueryData(jobKeys.started, Date.now());
  void queryClient.invalidateQueries({ queryKey: jobKeys.all });
}

/** When this page last started a job, for the lists' polling. */
export const lastJobStart = (queryClient: QueryClient) => queryClient.getQueryData<number>(jobKeys.started);

/** Starts MERGE jobs and says what happened; the jobs lists read again so their polling starts. */
export function useStartMerge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ relations, mergeType }: { relations: MergeCandidate[]; mergeType: MergeType }) => jobsApi.mergeFeatures(relations, mergeType),
    onSuccess: (result) => {
      for (const notice of mergeNotices(result)) toaster.create(notice);
      jobStarted(queryClient);
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
      jobStarted(queryClient);
    },
    onError: (error) => toaster.create({ type: 'error', title: jobErrorText(error) }),
  });
}

/** Starts a LINK job between two records. */
export function useStartLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ left, right }: { left: string; right: string }) => jobsApi.link(left, right),
    onSuccess: (result) => {
      for (const notice of mergeNotices(result, LINK_STARTED)) toaster.create(notice);
      jobStarted(queryClient);
    },
    onError: (error) => toaster.create({ type: 'error', title: jobErrorText(error) }),
  });
}
