import { Alert, Heading, Stack } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { toApiError } from '../forms/use-form';
import { recordsApi } from '../records/records-api';
import { RecordEditForm } from '../records/RecordEditForm';
import { useRecord } from '../records/use-record';
import { recordKeys } from '../shared/query-keys';

/** Record edit (#/records/edit/{id}). */
export function RecordEditPage() {
  const { id = '' } = useParams();
  const { isSignedIn, isLoadingUser } = useAuth();
  const record = useRecord(id);
  const visibility = useQuery({
    queryKey: recordKeys.visibility(id),
    queryFn: ({ signal }) => recordsApi.visibility(id, signal),
    enabled: isSignedIn && !!record.data?.edit,
  });
  const options = useQuery({ queryKey: recordKeys.accessOptions, queryFn: ({ signal }) => recordsApi.accessOptions(signal), staleTime: 10 * 60_000 });
  const loading = record.isPending || isLoadingUser || (visibility.isPending && visibility.fetchStatus !== 'idle');

  return (
    <Stack gap="6" maxW="6xl">
      <Heading as="h1" size="2xl">
        Edit record{record.data ? `: ${record.data.name}` : ''}
      </Heading>
      {loading && !record.isError && <LoadingState label="Loading the record…" />}
      {record.isError && <ServerErrorAlert error={toApiError(record.error)} title="The record could not be loaded." />}
      {record.data && !record.data.edit && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>You may not edit this record.</Alert.Title>
        </Alert.Root>
      )}
      {record.data?.edit && !loading && <RecordEditForm key={record.data.id} record={record.data} visibility={visibility.data} options={options.data} />}
    </Stack>
  );
}
