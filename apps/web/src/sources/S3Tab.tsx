import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Checkbox, CloseButton, HStack, List, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';
import { TextField } from '../forms/TextField';
import { formatSize } from '../lib/format';
import { SelectField } from '../records/SelectField';
import { type CloudAccount, cloudApi, type CloudCredentials, type CloudIndexResult } from './sources-api';

// Spec section 8 (Cloud), word for word.
export const BUCKETS_FAILED = 'Loading buckets for this account failed. Please try again.';
export const OBJECTS_FAILED = 'Loading bucket objects failed. Please try again.';
/** Spec section 9: sync modes; the selector is disabled, so only once applies. */
const SYNC: Array<[string, string]> = [
  ['Once', 'once'],
  ['Hourly', 'hourly'],
  ['Daily', 'daily'],
  ['Weekly', 'weekly'],
];

function CheckboxRow({ label, checked, onChange }: { label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <Checkbox.Root colorPalette="teal" checked={checked} onCheckedChange={(details) => onChange(details.checked === true)}>
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}

function Failure({ text }: { text: string }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Title>{text}</Alert.Title>
    </Alert.Root>
  );
}

/** Add data → Index AWS S3 Objects (spec section 2). */
export function S3Tab() {
  const [keyId, setKeyId] = useState('');
  const [secret, setSecret] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('us-east-1');
  const [save, setSave] = useState(true);
  const [accounts, setAccounts] = useState<CloudAccount[] | null>(null);
  const [deleting, setDeleting] = useState<CloudAccount | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [credentials, setCredentials] = useState<CloudCredentials | null>(null);
  const [buckets, setBuckets] = useState<string[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [objects, setObjects] = useState<{ bucket: string; items: Array<{ name: string; size: number }> } | null>(null);
  const [chosenObjects, setChosenObjects] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [results, setResults] = useState<CloudIndexResult[]>([]);

  const load = useCallback(async () => {
    try {
      setAccounts((await cloudApi.accounts()).results);
    } catch {
      setAccounts([]);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const loadBuckets = async (using: CloudCredentials, saveAccount: boolean) => {
    setBusy('buckets');
    setError(null);
    setBuckets(null);
    setObjects(null);
    setChecked([]);
    try {
      const answer = await cloudApi.buckets(using, saveAccount);
      setBuckets(answer.buckets.map((b) => b.name));
      const account = answer.account;
      if (account) {
        setAccounts((current) => [...(current ?? []).filter((a) => a.id !== account.id), account]);
        setCredentials({ accountId: account.id });
        setSecret('');
      } else setCredentials(using);
    } catch {
      setError(BUCKETS_FAILED);
    } finally {
      setBusy(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadBuckets(
      { AwsAccessKeyId: keyId.trim(), AwsSecretAccessKey: secret, ...(endpoint.trim() && { endpoint: endpoint.trim() }), region: region.trim() || 'us-east-1' },
      save,
    );
  };

  const listObjects = async () => {
    if (!credentials || checked.length !== 1) return;
    setBusy('objects');
    setError(null);
    try {
      const answer = await cloudApi.objects(credentials, checked[0]);
      setObjects({ bucket: answer.bucket, items: answer.objects });
      setChosenObjects([]);
    } catch {
      setError(OBJECTS_FAILED);
    } finally {
      setBusy(null);
    }
  };

  const index = async (work: () => Promise<{ results: CloudIndexResult[] }>) => {
    setBusy('index');
    setError(null);
    try {
      setResults((await work()).results);
    } catch {
      setError('Indexing failed. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await cloudApi.removeAccount(deleting.id);
      setAccounts((current) => (current ?? []).filter((a) => a.id !== deleting.id));
      setDeleting(null);
      setDeleteError(null);
    } catch {
      setDeleteError('Delete account failed...');
    }
  };

  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

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
          <CheckboxRow label="Save this account" checked={save} onChange={setSave} />
          <HStack>
            <Button type="submit" colorPalette="teal" loading={busy === 'buckets'} disabled={!keyId.trim() || !secret}>
              Load Buckets
            </Button>
          </HStack>
        </Stack>
      </form>

      <Stack gap="3">
        <Text fontWeight="semibold" fontSize="lg">
          Saved accounts
        </Text>
        {accounts === null && <LoadingState label="Loading accounts…" />}
        {accounts && accounts.length === 0 && <Text color="fg.muted">No saved accounts.</Text>}
        {accounts && accounts.length > 0 && (
          <List.Root variant="plain" gap="2" aria-label="Saved accounts">
            {accounts.map((account) => (
              <List.Item key={account.id}>
                <HStack borderWidth="1px" borderRadius="md" px="3" py="2" w="100%">
                  <Text flex="1">
                    {account.AwsAccessKeyId} {account.endpoint ? `at ${account.endpoint}` : 'on AWS'} ({account.region})
                  </Text>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Load ${account.AwsAccessKeyId}`}
                    onClick={() => void loadBuckets({ accountId: account.id }, false)}
                  >
                    Load
                  </Button>
                  <CloseButton size="sm" aria-label={`Delete account ${account.AwsAccessKeyId}`} onClick={() => setDeleting(account)} />
                </HStack>
              </List.Item>
            ))}
          </List.Root>
        )}
      </Stack>

      {error && <Failure text={error} />}

      {buckets && (
        <Stack gap="3" data-testid="buckets">
          <Text fontWeight="semibold" fontSize="lg">
            Buckets
          </Text>
          {buckets.length === 0 && <Text color="fg.muted">This account has no buckets.</Text>}
          {buckets.map((bucket) => (
            <CheckboxRow
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
            <Button variant="outline" disabled={checked.length !== 1} loading={busy === 'objects'} onClick={() => void listObjects()}>
              List Objects
            </Button>
            <Button
              colorPalette="teal"
              disabled={checked.length === 0 || !credentials}
              loading={busy === 'index'}
              onClick={() => credentials && void index(() => cloudApi.indexBuckets(credentials, checked))}
            >
              Index Selected Buckets
            </Button>
          </HStack>
        </Stack>
      )}

      {objects && (
        <Stack gap="3" data-testid="bucket-objects">
          <Text fontWeight="semibold" fontSize="lg">
            Objects of {objects.bucket}
          </Text>
          {objects.items.length === 0 && <Text color="fg.muted">This bucket is empty.</Text>}
          {objects.items.map((item) => (
            <CheckboxRow
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
              loading={busy === 'index'}
              onClick={() => credentials && void index(() => cloudApi.indexObjects(credentials, objects.bucket, chosenObjects))}
            >
              Index Selected Objects
            </Button>
          </HStack>
        </Stack>
      )}

      {busy === 'index' && <LoadingState label="Indexing…" />}
      {results.length > 0 && (
        <Table.Root size="sm" aria-label="Indexed objects" data-testid="index-results">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Id</Table.ColumnHeader>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Size</Table.ColumnHeader>
              <Table.ColumnHeader>Type</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
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
          </Table.Body>
        </Table.Root>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete account"
        message="Are you sure you want to delete this account?"
        confirmLabel="Delete"
        onConfirm={() => void remove()}
        onCancel={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
      >
        {deleteError && <Text color="fg.error">{deleteError}</Text>}
      </ConfirmDialog>
    </Stack>
  );
}
