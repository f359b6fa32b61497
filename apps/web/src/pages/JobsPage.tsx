import { useState } from 'react';
import { Alert, Badge, Button, Card, Grid, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { harvestOf } from '../harvest/harvest-api';
import { HarvestSummary } from '../harvest/HarvestSummary';
import { JobProgress } from '../jobs/JobProgress';
import { hasFailed, JOB_DELETE_FAILED, JOB_DELETED, JOBS_PAGE_POLL_MS, NO_JOBS_FOUND, NO_JOBS_HISTORY, pollWhileActive } from '../jobs/job-rules';
import { jobsApi, type Job } from '../jobs/jobs-api';
import { LinkResultDialog } from '../jobs/LinkResultDialog';
import { lastJobStart } from '../jobs/use-merge';
import { formatDate } from '../lib/format';
import { toaster } from '../shell/toaster';
import { jobKeys, recordKeys } from '../shared/query-keys';

/** Backend Jobs (spec section 2, Jobs): the caller's LINK, MERGE and HARVEST (DCAT import) jobs, polled every 10 s while one is active. */
export function JobsPage() {
  const { isSignedIn } = useAuth();
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        Backend Jobs
      </Heading>
      {isSignedIn ? (
        <JobsList />
      ) : (
        <Text color="fg.muted">
          Jobs run for signed-in users.{' '}
          <Link asChild colorPalette="teal">
            <RouterLink to="/login">Login</RouterLink>
          </Link>{' '}
          to see yours.
        </Text>
      )}
    </Stack>
  );
}

function JobsList() {
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: jobKeys.list(false),
    queryFn: ({ signal }) => jobsApi.list(false, signal),
    refetchInterval: (query) => pollWhileActive(query.state.data, JOBS_PAGE_POLL_MS, lastJobStart(queryClient)),
  });
  const [showing, setShowing] = useState<Job | null>(null);
  const remove = useMutation({
    mutationFn: (job: Job) => jobsApi.remove(job.job_id),
    onSuccess: (_answer, job) => {
      queryClient.setQueryData<Job[]>(jobKeys.list(false), (old) => old?.filter((j) => j.job_id !== job.job_id));
      void queryClient.invalidateQueries({ queryKey: jobKeys.all });
      toaster.create({ type: 'success', title: JOB_DELETED });
    },
    onError: () => toaster.create({ type: 'error', title: JOB_DELETE_FAILED }),
  });

  if (jobs.isPending) return <LoadingState label="Loading jobs…" />;
  if (jobs.isError)
    return (
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Title>{NO_JOBS_FOUND}</Alert.Title>
        <Button size="xs" variant="outline" ms="auto" onClick={() => void jobs.refetch()}>
          Try again
        </Button>
      </Alert.Root>
    );
  if (jobs.data.length === 0)
    return (
      <Stack gap="1" data-testid="jobs-empty">
        <Text fontWeight="medium">{NO_JOBS_HISTORY}</Text>
        <Text color="fg.muted" fontSize="sm">
          {NO_JOBS_FOUND} Merges and links started from the Workspace's work area, and DCAT catalogue imports, show here.
        </Text>
      </Stack>
    );
  return (
    <>
      <Grid as="ul" templateColumns="repeat(auto-fill, minmax(300px, 1fr))" gap="4" data-testid="jobs-list" aria-label="Jobs">
        {jobs.data.map((job) => (
          <JobCard
            key={job.job_id}
            job={job}
            deleting={remove.isPending && remove.variables?.job_id === job.job_id}
            onDelete={() => remove.mutate(job)}
            onResult={() => setShowing(job)}
            onResultRecord={() => void queryClient.invalidateQueries({ queryKey: recordKeys.lists() })}
          />
        ))}
      </Grid>
      <LinkResultDialog job={showing} onClose={() => setShowing(null)} />
    </>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <HStack gap="2" fontSize="sm" align="baseline">
      <Text color="fg.muted" minW="24">
        {label}
      </Text>
      <Text wordBreak="break-word">{value}</Text>
    </HStack>
  );
}

function JobCard({
  job,
  deleting,
  onDelete,
  onResult,
  onResultRecord,
}: {
  job: Job;
  deleting: boolean;
  onDelete(): void;
  onResult(): void;
  onResultRecord(): void;
}) {
  const failed = hasFailed(job);
  const resultRecord = job.type === 'MERGE' && !job.is_active ? job.content?.result_record_id : null;
  const harvest = harvestOf(job);
  return (
    <Card.Root as="li" listStyleType="none" variant="outline" size="sm" aria-label={`${job.type} job ${job.job_id}`} data-testid={`job-${job.job_id}`}>
      <Card.Header pb="1">
        <HStack justify="space-between" gap="2">
          <Badge colorPalette={job.type === 'LINK' ? 'purple' : harvest ? 'blue' : 'teal'} size="md">
            {job.type}
          </Badge>
          <Text fontFamily="mono" fontSize="xs" truncate title={job.job_id}>
            {job.job_id}
          </Text>
        </HStack>
      </Card.Header>
      <Card.Body py="2" gap="2">
        {job.is_active ? (
          <JobProgress job={job} label={`Progress of job ${job.job_id}`} />
        ) : (
          <Text fontWeight="medium" color={failed ? 'fg.error' : 'fg.success'} data-testid="job-status">
            {failed ? 'Status: Failed' : 'Status: Complete'}
          </Text>
        )}
        {job.info && (
          <Text fontSize="sm" data-testid="job-info">
            {job.info}
          </Text>
        )}
        {harvest && <HarvestSummary source={harvest.source} outcome={harvest.outcome} />}
        <Stack gap="0.5">
          <Line label="Active" value={job.is_active ? 'Yes' : 'No'} />
          <Line label="Created" value={formatDate(job.created)} />
          <Line label="Completed" value={formatDate(job.completed)} />
          {job.type === 'LINK' && !job.is_active && !failed && typeof job.content?.total_matches === 'number' && (
            <Line label="Matches" value={job.content.total_matches.toLocaleString('en')} />
          )}
        </Stack>
      </Card.Body>
      <Card.Footer pt="1" gap="2" flexWrap="wrap">
        {job.type === 'LINK' && !job.is_active && !failed && (
          <Button size="xs" colorPalette="teal" onClick={onResult} aria-label={`Result of job ${job.job_id}`}>
            Result
          </Button>
        )}
        {resultRecord && (
          <Button asChild size="xs" colorPalette="teal" variant="outline">
            <RouterLink to={`/records/${resultRecord}`} onClick={onResultRecord}>
              Merged record
            </RouterLink>
          </Button>
        )}
        <Button size="xs" variant="ghost" colorPalette="red" loading={deleting} onClick={onDelete} aria-label={`Delete job ${job.job_id}`}>
          Delete
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
