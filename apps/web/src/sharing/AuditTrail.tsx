import { Alert, Code, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '../components/LoadingState';
import { dayAndTime } from './request-rules';
import { sharingApi } from './sharing-api';
import { DataTable } from '../components/DataTable';
import { sharingKeys } from '../shared/query-keys';

const ACTIONS: Record<string, string> = {
  created: 'Request opened',
  sent: 'Request sent',
  review: 'Review started',
  approved: 'Approved',
  disapproved: 'Denied',
  revoked: 'Access revoked',
  closed: 'Closed by the requestor',
  download: 'Downloaded under the grant',
};

function detailsOf(action: string, details: Record<string, string | number | boolean | null>): string {
  const text = (key: string) => (details[key] === null || details[key] === undefined ? '' : String(details[key]));
  if (action === 'approved') return details.expiresAt ? `until ${text('expiresAt').slice(0, 10)}` : 'no end date';
  if (action === 'revoked') return text('reason');
  if (action === 'download') return text('fileName');
  return '';
}

/** A record's audit trail for its owner side: every decision and download under a grant, hash-chained. */
export function AuditTrail({ recordId }: { recordId: string }) {
  const trail = useQuery({ queryKey: sharingKeys.audit(recordId), queryFn: ({ signal }) => sharingApi.audit(recordId, signal), retry: false });
  return (
    <Stack gap="2" as="section" aria-label="Audit trail">
      <Heading as="h3" size="sm">
        Audit trail
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Every request decision and every download under a grant. Each entry is sealed with the one before it, so a later change to any entry can be detected;
        your operator can check the whole trail on request.
      </Text>
      {trail.isPending && <LoadingState label="Loading the audit trail…" />}
      {trail.isError && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>The audit trail could not be loaded.</Alert.Title>
        </Alert.Root>
      )}
      {trail.isSuccess && trail.data.results.length === 0 && <Text color="fg.muted">No requests for this record yet.</Text>}
      {trail.isSuccess && trail.data.results.length > 0 && (
        <DataTable label="Audit trail entries" headers={['#', 'When', 'Who', 'What', 'Details', 'Hash']}>
          {trail.data.results.map((entry) => (
            <Table.Row key={entry.id} data-testid="audit-entry">
              <Table.Cell>{entry.seq}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{dayAndTime(entry.occurred_at)}</Table.Cell>
              <Table.Cell>{entry.actor || 'N/A'}</Table.Cell>
              <Table.Cell data-testid="audit-action">{ACTIONS[entry.action] ?? entry.action}</Table.Cell>
              <Table.Cell>{detailsOf(entry.action, entry.details)}</Table.Cell>
              <Table.Cell>
                <Code fontSize="xs" title={entry.hash}>
                  {entry.hash.slice(0, 12)}…
                </Code>
              </Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}
