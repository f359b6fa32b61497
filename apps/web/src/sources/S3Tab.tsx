import { useState, type FormEvent } from 'react';
import { Box, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { CheckboxField } from '../components/CheckboxField';
import { LoadingState } from '../components/LoadingState';
import { HeadedTable } from '../components/DataTable';
import { SelectField } from '../components/SelectField';
import { StatusAlert } from '../components/StatusAlert';
import { TextField } from '../forms/TextField';
import { formatSize } from '../lib/format';
import { recordKeys, sourceKeys } from '../shared/query-keys';
import { SavedItems } from './SavedItems';
import { type CloudAccount, cloudApi, type CloudCredentials, type CloudIndexResult } from './sources-api';

// Spec section 8 (Cloud), word for word.
export const BUCKETS_FAILED = 'Loading buckets for this account failed. Please try again.';
export const OBJECTS_FAILED = 'Loading bucket objects failed. Please try again.';
const INDEX_FAILED = 'Indexing failed. Please try again.';
/** Spec section 9: sync modes; the selector is disabled, so only once applies. */
const SYNC: Array<[string, string]> = [
  ['Once', 'once'],
  ['Hourly', 'hourly'],
  ['Daily', 'daily'],
  ['Weekly', 'weekly'],
];

type AccountsPage = { results: CloudAccount[] };

const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

/** Add data → Index AWS S3 Objects (spec section 2). */
export function S3Tab() {
  const queryClient = useQueryClient();
  const [keyId, setKeyId] = useState('');
  const [secret, setSecret] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('us-east-1');
  const [save, setSave] = useState(true);
  const [credentials, setCredentials] = useState<CloudCredentials | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [chosenObjects, setChosenObjects] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<CloudIndexResult[]>([]);

  const accounts = useQuery({ queryKey: sourceKeys.cloudAccounts, queryFn: ({ signal }) => cloudApi.accounts(signal), retry: false });
  const buckets = useMutation({
    mutationFn: ({ using, saveAccount }: { using: CloudCredentials; saveAccount: boolean }) => cloudApi.buckets(using, saveAccount),
    onMutate: () => {
      setError(null);
      objects.reset();
      setChecked([]);
    },
    onSuccess: ({ account }, { using }) => {
      if (account) {
        queryClient.setQueryData<AccountsPage>(
          sourceKeys.cloudAccounts,
          (page) => page && { ...page, results: [...page.results.filter((a) => a.id !== account.id), account] },
        );
        void queryClient.invalidateQueries({ queryKey: sourceKeys.cloudAccounts });
        setCredentials({ accountId: account.id });
        setSecret('');
      } else setCredentials(using);
    },
    onError: () => setError(BUCKETS_FAILED),
  });
  const objects = useMutation({
    mutationFn: ({ using, bucket }: { using: CloudCredentials; bucket: string }) => cloudApi.objects(using, bucket),
    onMutate: () => setError(null),
    onSuccess: () => setChosenObjects([]),
    onError: () => setError(OBJECTS_FAILED),
  });
  const indexing = useMutation({
    mutationFn: (work: () => Promise<{ results: CloudIndexResult[] }>) => work(),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      setResults(answer.results);
      void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
    },
    onError: () => setError(INDEX_FAILED),
  });
  const bucketNames = buckets.data?.buckets.map((b) => b.name);
  const listed = objects.data && { bucket: objects.data.bucket, items: objects.data.objects };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    buckets.mutate({
      using: {
        AwsAccessKeyId: keyId.trim(),
        AwsSecretAccessKey: secret,
        ...(endpoint.trim() && { endpoint: endpoint.trim() }),
        region: region.trim() || 'us-east-1',
      },
      saveAccount: save,
    });
  };
  const listObjects = () => {
    if (credentials && checked.length === 1) objects.mutate({ using: credentials, bucket: checked[0] });
  };

  return (
    <Stack gap="8" maxW="4xl">
      <form noValidate onSubmit={submit} aria-label="S3 account">
        <Stack gap="4">
          <Text fontWeight="semibold" fontSize="lg">
            Account
          </Text>
          <HStack gap="4" align="start">
            <TextField label="Access key id" name="AwsAccessKeyId" autoComplete="off" value={keyId} onChange={setKeyId} />
            <TextField label="Secret access key" name="AwsSecretAccessKey" type="password" autoComplete="new-password" value={secret} onChange={setSecret} />
          </HStack>
          <HStack gap="4" align="start">
            <TextField
              label="Endpoint"
              name="endpoint"
              value={endpoint}
              onChange={setEndpoint}
              placeholder="https://minio.example.org"
              helperText="Leave empty for AWS; give the address of any S3-compatible store (MinIO, Ceph)."
            />
            <Box maxW="48">
              <TextField label="Region" name="region" value={region} onChange={setRegion} />
            </Box>
          </HStack>
          <CheckboxField label="Save this account" checked={save} onChange={setSave} />
          <HStack>
            <Button type="submit" colorPalette="teal" loading={buckets.isPending} disabled={!keyId.trim() || !secret}>
              Load Buckets
            </Button>
          </HStack>
        </Stack>
      </form>

      <SavedItems
        title="Saved accounts"
        items={accounts.data?.results ?? (accounts.isError ? [] : undefined)}
        loadingLabel="Loading accounts…"
        emptyText="No saved accounts."
        describe={(account) => (
          <>
            {account.AwsAccessKeyId} {account.endpoint ? `at ${account.endpoint}` : 'on AWS'} ({account.region})
          </>
        )}
        nameOf={(account) => account.AwsAccessKeyId}
        action={{
          label: 'Load',
          ariaLabel: (name) => `Load ${name}`,
          onClick: (account) => buckets.mutate({ using: { accountId: account.id }, saveAccount: false }),
        }}
        remove={{
          ariaLabel: (name) => `Delete account ${name}`,
          title: 'Delete account',
          message: 'Are you sure you want to delete this account?',
          failed: 'Delete account failed...',
          run: (account) => cloudApi.removeAccount(account.id),
          onRemoved: (account) => {
            queryClient.setQueryData<AccountsPage>(
              sourceKeys.cloudAccounts,
              (page) => page && { ...page, results: page.results.filter((a) => a.id !== account.id) },
            );
            void queryClient.invalidateQueries({ queryKey: sourceKeys.cloudAccounts });
          },
        }}
      />

      {error && <StatusAlert status="error" text={error} />}

      {bucketNames && (
        <Stack gap="3" data-testid="buckets">
          <Text fontWeight="semibold" fontSize="lg">
            Buckets
          </Text>
          {bucketNames.length === 0 && <Text color="fg.muted">This account has no buckets.</Text>}
          {bucketNames.map((bucket) => (
            <CheckboxField
              key={bucket}
              label={bucket}
              checked={checked.includes(bucket)}
              onChange={(on) => setChecked((current) => toggle(current, bucket, on))}
            />
          ))}
          <Box maxW="56">
            <SelectField label="Sync" name="sync" value="once" options={SYNC} onChange={() => undefined} disabled helperText="Only once is available." />
          </Box>
          <HStack>
            <Button variant="outline" disabled={checked.length !== 1} loading={objects.isPending} onClick={listObjects}>
              List Objects
            </Button>
            <Button
              colorPalette="teal"
              disabled={checked.length === 0 || !credentials}
              loading={indexing.isPending}
              onClick={() => credentials && indexing.mutate(() => cloudApi.indexBuckets(credentials, checked))}
            >
              Index Selected Buckets
            </Button>
          </HStack>
        </Stack>
      )}

      {listed && (
        <Stack gap="3" data-testid="bucket-objects">
          <Text fontWeight="semibold" fontSize="lg">
            Objects of {listed.bucket}
          </Text>
          {listed.items.length === 0 && <Text color="fg.muted">This bucket is empty.</Text>}
          {listed.items.map((item) => (
            <CheckboxField
              key={item.name}
              label={`${item.name} (${formatSize(item.size)})`}
              checked={chosenObjects.includes(item.name)}
              onChange={(on) => setChosenObjects((current) => toggle(current, item.name, on))}
            />
          ))}
          <HStack>
            <Button
              colorPalette="teal"
              disabled={chosenObjects.length === 0 || !credentials}
              loading={indexing.isPending}
              onClick={() => credentials && indexing.mutate(() => cloudApi.indexObjects(credentials, listed.bucket, chosenObjects))}
            >
              Index Selected Objects
            </Button>
          </HStack>
        </Stack>
      )}

      {indexing.isPending && <LoadingState label="Indexing…" />}
      {results.length > 0 && (
        <HeadedTable aria-label="Indexed objects" data-testid="index-results" headers={['Id', 'Name', 'Size', 'Type']}>
          {results.map((result, i) => (
            <Table.Row key={`${result.bucket}/${result.name}/${i}`}>
              <Table.Cell>{result.id ?? '—'}</Table.Cell>
              <Table.Cell>
                {result.id ? (
                  <RouterLink to={`/records/${result.id}`} style={{ textDecoration: 'underline' }}>
                    {result.name}
                  </RouterLink>
                ) : (
                  <Text color="fg.error">{result.error}</Text>
                )}
              </Table.Cell>
              <Table.Cell>{formatSize(result.size)}</Table.Cell>
              <Table.Cell>{result.type}</Table.Cell>
            </Table.Row>
          ))}
        </HeadedTable>
      )}
    </Stack>
  );
}
