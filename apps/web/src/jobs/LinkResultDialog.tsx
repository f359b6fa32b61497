import { useState } from 'react';
import { Alert, Button, Stack, Table, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '../components/LoadingState';
import { ModalFrame, ModalSections } from '../components/ModalDialog';
import { formatScore } from '../lib/format';
import { LINK_JOB_FAILED, noLinksText, recordRemovedText } from './job-rules';
import { jobsApi, type Job } from './jobs-api';
import { useMergeLinked } from './use-merge';
import { jobKeys } from '../shared/query-keys';
import { StatusAlert } from '../components/StatusAlert';

/** The linking result modal (spec section 2, Jobs): a LINK job's row pairs between its left and right record, with a merge button. */
export function LinkResultDialog({ job, onClose }: { job: Job | null; onClose(): void }) {
  return (
    <ModalFrame open={!!job} onClose={onClose} size="xl" testId="link-result">
      {job && <LinkResult job={job} onClose={onClose} />}
    </ModalFrame>
  );
}

/** Row pairs shown at first: a link job keeps up to 10,000. */
const FIRST_PAIRS = 100;

function LinkResult({ job, onClose }: { job: Job; onClose(): void }) {
  const [all, setAll] = useState(false);
  const content = useQuery({ queryKey: jobKeys.content(job.job_id), queryFn: ({ signal }) => jobsApi.content(job.job_id, signal), retry: false });
  const merge = useMergeLinked();
  const data = content.data;
  const left = data?.record_left_name ?? '';
  const right = data?.record_right_name ?? '';
  const matches = data?.matches ?? [];
  // Set when a grant a record was read under has ended: the server then sends no pairs.
  const withheld = data?.withheld ?? null;
  const missing = [data?.record_left_removed && left, data?.record_right_removed && right].filter((name): name is string => typeof name === 'string');
  return (
    <ModalSections
      title={`Linking result${data ? `: ${left} and ${right}` : ''}`}
      onClose={onClose}
      before={
        <Button
          colorPalette="teal"
          disabled={!data || matches.length === 0 || missing.length > 0}
          loading={merge.isPending}
          title="Merge the two records on their hashed columns (a new merge job)"
          onClick={() => data && merge.mutate({ left: data.record_left_id ?? '', right: data.record_right_id ?? '' }, { onSuccess: onClose })}
        >
          Merge
        </Button>
      }
    >
      {content.isPending && <LoadingState label="Loading the link result…" />}
      {content.isError && <StatusAlert status="error" text={LINK_JOB_FAILED} />}
      {data && (
        <Stack gap="3">
          {missing.map((name) => (
            <Alert.Root key={name} status="warning" role="alert">
              <Alert.Indicator />
              <Alert.Title>{recordRemovedText(name)}</Alert.Title>
            </Alert.Root>
          ))}
          {data.tot_rows && (
            <Text fontSize="sm">
              Total rows: {left} {data.tot_rows.left} · {right} {data.tot_rows.right}
            </Text>
          )}
          {withheld ? (
            <Alert.Root status="info" data-testid="links-withheld">
              <Alert.Indicator />
              <Alert.Title>{withheld}</Alert.Title>
            </Alert.Root>
          ) : matches.length === 0 ? (
            <Text color="fg.muted" data-testid="no-links">
              {noLinksText(left, right)}
            </Text>
          ) : (
            <Table.ScrollArea borderWidth="1px" borderRadius="md" maxH="96">
              <Table.Root size="sm" aria-label="Linked rows" stickyHeader>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Row of {left}</Table.ColumnHeader>
                    <Table.ColumnHeader>Row of {right}</Table.ColumnHeader>
                    <Table.ColumnHeader>Fields</Table.ColumnHeader>
                    <Table.ColumnHeader>Probability</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {(all ? matches : matches.slice(0, FIRST_PAIRS)).map((m) => (
                    <Table.Row key={`${m.rowA}-${m.rowB}`}>
                      <Table.Cell>{m.rowA + 1}</Table.Cell>
                      <Table.Cell>{m.rowB + 1}</Table.Cell>
                      <Table.Cell>{m.fieldsA.map((f, i) => (f === m.fieldsB[i] ? f : `${f} = ${m.fieldsB[i]}`)).join(', ')}</Table.Cell>
                      <Table.Cell>{formatScore(m.rows_match_prob)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
          {matches.length > FIRST_PAIRS && (
            <Button size="xs" variant="ghost" alignSelf="start" onClick={() => setAll(!all)}>
              {all ? `Show the first ${FIRST_PAIRS}` : `Show all ${matches.length.toLocaleString('en')} row pairs`}
            </Button>
          )}
        </Stack>
      )}
    </ModalSections>
  );
}
