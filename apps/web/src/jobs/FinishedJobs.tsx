import { useEffect } from 'react';
import { Alert, CloseButton, Link, Stack } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { jobKeys } from '../shared/query-keys';
import { useSharedState } from '../shared/use-shared-state';
import { ACTIVE_JOBS_POLL_MS } from './job-rules';
import { jobsApi, type Job } from './jobs-api';
import type { WatchedJob } from './use-merge';

/** "Merge finished: <name>" and the like: what the announcement of an ended job says. */
export function finishedText(job: Job, resultName: string | undefined): string {
  const kind = job.type === 'MERGE' ? 'Merge' : 'Link';
  if (job.failed) return `${kind} failed: ${job.info}`;
  if (job.type === 'MERGE') return resultName ? `Merge finished: ${resultName}` : 'Merge finished';
  return `Link finished: ${job.content.record_left_name} and ${job.content.record_right_name}`;
}

/**
 * Announces the end of the jobs this page started (a live region, so screen readers hear it too):
 * "Merge finished: <name>" with a link to the new record, "Link finished" with a link to the Jobs
 * page, or "Merge failed: <why>". Each stays until dismissed. The caller's jobs are read every 3 s
 * while one it watches has not ended.
 */
export function FinishedJobs() {
  const queryClient = useQueryClient();
  const watched = useQuery({ queryKey: jobKeys.watched, queryFn: () => [] as WatchedJob[], staleTime: Infinity, gcTime: Infinity }).data ?? [];
  // Shared state, not this component's: the announcement stays when the work area moves.
  const [ended, setEnded] = useSharedState<Job[]>(jobKeys.ended, []);
  const jobs = useQuery({
    queryKey: jobKeys.list(false),
    queryFn: ({ signal }) => jobsApi.list(false, signal),
    enabled: watched.length > 0,
    refetchInterval: watched.length > 0 ? ACTIVE_JOBS_POLL_MS : false,
  });
  useEffect(() => {
    const done = (jobs.data ?? []).filter((job) => !job.is_active && watched.some((w) => w.job_id === job.job_id));
    if (done.length === 0) return;
    queryClient.setQueryData<Job[]>(jobKeys.ended, (old = []) => [...done.filter((job) => !old.some((o) => o.job_id === job.job_id)), ...old]);
    queryClient.setQueryData<WatchedJob[]>(jobKeys.watched, (old = []) => old.filter((w) => !done.some((job) => job.job_id === w.job_id)));
  }, [jobs.data, watched, queryClient]);
  return (
    <Stack gap="2" role="status" aria-live="polite" aria-label="Finished jobs" data-testid="finished-jobs">
      {ended.map((job) => (
        <Announcement key={job.job_id} job={job} onDismiss={() => setEnded((old) => old.filter((o) => o.job_id !== job.job_id))} />
      ))}
    </Stack>
  );
}

function Announcement({ job, onDismiss }: { job: Job; onDismiss(): void }) {
  const recordId = job.type === 'MERGE' && !job.failed ? job.content.result_record_id : null;
  // The catalogue makes the new record just after the job ends: asked again until it has.
  const name = useQuery({
    queryKey: jobKeys.resultName(recordId ?? ''),
    queryFn: ({ signal }) => jobsApi.recordName(recordId!, signal),
    enabled: !!recordId,
    retry: 10,
    retryDelay: 1_000,
  });
  const text = finishedText(job, name.data);
  return (
    <Alert.Root status={job.failed ? 'error' : 'success'} size="sm" data-testid="finished-job" alignItems="center">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{text}</Alert.Title>
        <Alert.Description>
          {recordId ? (
            <Link asChild colorPalette="teal" fontWeight="medium">
              <RouterLink to={`/records/${recordId}`}>{name.data ? `Open ${name.data}` : 'Open the new record'}</RouterLink>
            </Link>
          ) : (
            <Link asChild colorPalette="teal">
              <RouterLink to="/jobs">{job.failed ? 'See the job' : 'See the linked rows in Backend Jobs'}</RouterLink>
            </Link>
          )}
        </Alert.Description>
      </Alert.Content>
      <CloseButton size="2xs" aria-label={`Dismiss: ${text}`} onClick={onDismiss} />
    </Alert.Root>
  );
}
