import { List, Stack, Text } from '@chakra-ui/react';
import type { HarvestOutcome } from './harvest-api';

/** A finished import on the Jobs page: what it made of the datasets, and why the failed ones failed. */
export function HarvestSummary({ source, outcome }: { source: string; outcome: HarvestOutcome | null }) {
  return (
    <Stack gap="1" fontSize="sm" data-testid="harvest-summary">
      <Text wordBreak="break-word">
        <Text as="span" color="fg.muted">
          Catalogue{' '}
        </Text>
        {source}
      </Text>
      {outcome && (
        <>
          <Text>
            {outcome.created} created, {outcome.updated} updated, {outcome.failed} failed
          </Text>
          {outcome.failures.length > 0 && (
            <List.Root ps="4" aria-label="Datasets that failed">
              {outcome.failures.map((failure) => (
                <List.Item key={failure.dataset} wordBreak="break-word">
                  {failure.dataset}: {failure.reason}
                </List.Item>
              ))}
            </List.Root>
          )}
        </>
      )}
    </Stack>
  );
}
