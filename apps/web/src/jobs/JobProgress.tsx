import { HStack, Progress } from '@chakra-ui/react';
import { progressPercent } from './job-rules';
import type { Job } from './jobs-api';

/** A running job's progress bar: current of total, as a rounded percentage (spec section 9). */
export function JobProgress({ job, label }: { job: Job; label: string }) {
  const percent = progressPercent(job.progress);
  return (
    <Progress.Root value={percent} colorPalette="teal" size="sm" aria-label={label} data-testid="job-progress" striped animated>
      <HStack gap="2">
        <Progress.Track flex="1">
          <Progress.Range />
        </Progress.Track>
        <Progress.ValueText minW="10" textAlign="end">{`${percent}%`}</Progress.ValueText>
      </HStack>
    </Progress.Root>
  );
}
