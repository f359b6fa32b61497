import { useEffect, useRef } from 'react';
import { Badge, Grid, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { truncate } from '../lib/format';

import { ACTIVE_JOBS_POLL_MS, pollWhileActive } from './job-rules';
import { jobsApi, type Job } from './jobs-api';
import { FinishedJobs } from './FinishedJobs';
import { JobProgress } from './JobProgress';
import { lastJobStart } from './use-merge';
import { jobKeys, recordKeys } from '../shared/query-keys';

const jobName = (job: Job) =>
  job.content?.record_left_name && job.content.record_right_name
    ? `${job.content.record_left_name} · ${job.content.record_right_name}`
    : job.info || job.job_id;

/**
 * The work area's mosaic of running jobs (spec section 2): a progress bar each, polled every 3 s
 * while one runs. When a job ends the records list is read again, so a merge's new record shows,
 * and the end of a job this page started is announced (FinishedJobs).
 */
export function RunningJobs() {
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: jobKeys.list(true),
    queryFn: ({ signal }) => jobsApi.list(true, signal),
    refetchInterval: (query) => pollWhileActive(query.state.data, ACTIVE_JOBS_POLL_MS, lastJobStart(queryClient)),
  });
  const running = (jobs.data ?? []).filter((job) => job.is_active);
  const before = useRef<Set<string>>(new Set());
  useEffect(() => {
    const now = new Set((jobs.data ?? []).filter((job) => job.is_active).map((job) => job.job_id));
    const ended = [...before.current].some((id) => !now.has(id));
    before.current = now;
    if (ended) {
      void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: jobKeys.list(false) });
    }
  }, [jobs.data, queryClient]);

  return (
    <>
      <FinishedJobs />
      {running.length > 0 && <Running running={running} />}
    </>
  );
}

function Running({ running }: { running: Job[] }) {
  return (
    <Stack gap="2" aria-label="Running jobs" role="region" data-testid="running-jobs">
      <Heading as="h3" size="xs">
        Running jobs
      </Heading>
      <Grid templateColumns="repeat(auto-fill, minmax(7.5rem, 1fr))" gap="2">
        {running.map((job) => (
          <Stack key={job.job_id} gap="1" borderWidth="1px" borderRadius="md" p="2" data-testid="running-job">
            <Badge alignSelf="start" size="sm" colorPalette={job.type === 'LINK' ? 'purple' : 'teal'}>
              {job.type}
            </Badge>
            <Text fontSize="xs" truncate title={jobName(job)}>
              {truncate(jobName(job), 40)}
            </Text>
            <JobProgress job={job} label={`Progress of ${job.type.toLowerCase()} job ${job.job_id}`} />
          </Stack>
        ))}
      </Grid>
      <Link asChild fontSize="xs" colorPalette="teal">
        <RouterLink to="/jobs">All jobs</RouterLink>
      </Link>
    </Stack>
  );
}
