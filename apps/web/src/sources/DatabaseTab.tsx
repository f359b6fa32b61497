import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CloseButton, HStack, List, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';
import { TextField } from '../forms/TextField';
import { SelectField } from '../records/SelectField';
import type { CatalogueRecord } from '../records/types';
import { ColumnSelectionModal } from './ColumnSelectionModal';
import { LinkageKeyPanel, useLinkageKey } from './LinkageKeyPanel';
import { choicesToFields, type ColumnChoice } from './private-columns';
import { type Connection, type ConnectionForm, connectionsApi, type SqlTable, type TablePreview } from './sources-api';

// Spec section 8 (Connections), word for word.
export const NO_CONNECTIONS = 'No connections available, please create one.';
export const LOADING_CONNECTIONS_FAILED = 'Loading connections failed...';
export const TESTING_FAILED = 'Testing connection failed...';
export const TESTING_ERROR = 'Testing connection error...';
export const ADDING_FAILED = 'Adding connection failed...';
export const DELETE_FAILED = 'Delete connection failed...';
export const LOADING_CONNECTION_FAILED = 'Loading connection failed...';
/** Spec section 9: the no-connections alert hides after 3 s. */
const NO_CONNECTIONS_MS = 3_000;

const INITIAL: ConnectionForm = { sqltype: 'postgresql', host: '', name: '', username: '', password: '', port: '5432' };
const TYPES: Array<[string, string]> = [
  ['PostgreSQL', 'postgresql'],
  ['MySQL / MariaDB', 'mysql'],
];

function Message({ status, text }: { status: 'error' | 'success' | 'info'; text: string }) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Title>{text}</Alert.Title>
    </Alert.Root>
  );
}

/** Add data → Index Database Table (spec section 2). */
export function DatabaseTab() {
  const [form, setForm] = useState<ConnectionForm>(INITIAL);
  const [passed, setPassed] = useState(false);
  const [busy, setBusy] = useState<'test' | 'connect' | null>(null);
  const [message, setMessage] = useState<{ status: 'error' | 'success'; text: string } | null>(null);
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [showNone, setShowNone] = useState(false);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Connection | null>(null);
  const [tables, setTables] = useState<SqlTable[] | null>(null);
  const [tablesError, setTablesError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ table: string; data: TablePreview } | null>(null);
  const [indexing, setIndexing] = useState(false);
  const [indexError, setIndexError] = useState<string | null>(null);
  const [created, setCreated] = useState<CatalogueRecord[]>([]);
  const linkage = useLinkageKey();

  const load = useCallback(async () => {
    setListError(null);
    try {
      const page = await connectionsApi.list();
      setConnections(page.results);
      if (page.results.length === 0) setShowNone(true);
    } catch {
      setListError(LOADING_CONNECTIONS_FAILED);
      setConnections([]);
    }
  }, []);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!showNone) return;
    const timer = setTimeout(() => setShowNone(false), NO_CONNECTIONS_MS);
    return () => clearTimeout(timer);
  }, [showNone]);

  // A changed form must pass its test again before Connect.
  const set = <K extends keyof ConnectionForm>(key: K, value: ConnectionForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setPassed(false);
  };

  const test = async () => {
    setBusy('test');
    setMessage(null);
    try {
      const { pass } = await connectionsApi.test(form);
      setPassed(pass);
      setMessage(pass ? { status: 'success', text: 'The connection test passed.' } : { status: 'error', text: TESTING_FAILED });
    } catch {
      setPassed(false);
      setMessage({ status: 'error', text: TESTING_ERROR });
    } finally {
      setBusy(null);
    }
  };

  const connect = async (event: FormEvent) => {
    event.preventDefault();
    if (!passed) return;
    setBusy('connect');
    setMessage(null);
    try {
      const connection = await connectionsApi.create(form);
      setConnections((current) => [...(current ?? []), connection]);
      setForm(INITIAL);
      setPassed(false);
      setMessage({ status: 'success', text: `The connection to ${connection.name} was added.` });
    } catch {
      setMessage({ status: 'error', text: ADDING_FAILED });
    } finally {
      setBusy(null);
    }
  };

  const select = async (connection: Connection) => {
    setSelected(connection);
    setTables(null);
    setTablesError(null);
    setCreated([]);
    try {
      setTables((await connectionsApi.tables(connection.id)).results);
    } catch {
      setTablesError(LOADING_CONNECTION_FAILED);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await connectionsApi.remove(deleting.id);
      const remaining = (connections ?? []).filter((c) => c.id !== deleting.id);
      setConnections(remaining);
      if (remaining.length === 0) setShowNone(true);
      if (selected?.id === deleting.id) {
        setSelected(null);
        setTables(null);
      }
      setDeleting(null);
    } catch {
      setDeleteError(DELETE_FAILED);
    }
  };

  const openTable = async (table: string) => {
    if (!selected) return;
    setIndexError(null);
    try {
      setPreview({ table, data: await connectionsApi.preview(selected.id, table) });
    } catch {
      setTablesError(LOADING_CONNECTION_FAILED);
    }
  };

  const createRecord = async (choices: ColumnChoice[]) => {
    if (!selected || !preview) return;
    const { hashed, fuzzy, formatList } = choicesToFields(preview.data.HEADERS, choices);
    if (hashed.length && !linkage.key) {
      setIndexError('Give your linkage key to hash columns.');
      return;
    }
    setIndexing(true);
    setIndexError(null);
    try {
      const record = await connectionsApi.createMetadata(selected.id, preview.table, {
        encryptList: hashed,
        ...(fuzzy.length > 0 && { fuzzyList: fuzzy }),
        formatList,
        ...(hashed.length && linkage.key ? { linkageKey: linkage.key } : {}),
      });
      setCreated((current) => [record, ...current]);
      setPreview(null);
    } catch {
      setIndexError('Record could not be saved. Please contact support.');
    } finally {
      setIndexing(false);
    }
  };

  return (
    <Stack gap="8" maxW="4xl">
      <form noValidate onSubmit={connect} aria-label="New connection">
        <Stack gap="4">
          <Text fontWeight="semibold" fontSize="lg">
            New connection
          </Text>
          <SelectField
            label="Database type"
            name="sqltype"
            value={form.sqltype}
            options={TYPES}
            onChange={(v) => set('sqltype', v as ConnectionForm['sqltype'])}
          />
          <HStack gap="4" align="start">
            <TextField label="Host" name="host" value={form.host} onChange={(v) => set('host', v)} placeholder="db.example.org" />
            <Box maxW="32">
              <TextField label="Port" name="port" value={form.port} onChange={(v) => set('port', v)} />
            </Box>
          </HStack>
          <TextField label="Database name" name="name" value={form.name} onChange={(v) => set('name', v)} />
          <HStack gap="4" align="start">
            <TextField label="Username" name="username" autoComplete="off" value={form.username} onChange={(v) => set('username', v)} />
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              value={form.password}
              onChange={(v) => set('password', v)}
            />
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            The catalogue reads the database with a read-only session. Give it a user that may only read. The password is stored encrypted and never shown
            again.
          </Text>
          {message && <Message status={message.status} text={message.text} />}
          <HStack>
            <Button variant="outline" onClick={test} loading={busy === 'test'} disabled={!form.host.trim() || !form.name.trim() || !form.username.trim()}>
              Test
            </Button>
            <Button type="submit" colorPalette="teal" disabled={!passed} loading={busy === 'connect'}>
              Connect
            </Button>
          </HStack>
        </Stack>
      </form>

      <Stack gap="3">
        <Text fontWeight="semibold" fontSize="lg">
          Available connections
        </Text>
        {connections === null && <LoadingState label="Loading connections…" />}
        {listError && <Message status="error" text={listError} />}
        {showNone && <Message status="info" text={NO_CONNECTIONS} />}
        {connections && connections.length > 0 && (
          <List.Root variant="plain" gap="2" aria-label="Available connections">
            {connections.map((connection) => (
              <List.Item key={connection.id}>
                <HStack borderWidth="1px" borderRadius="md" px="3" py="2" w="100%" bg={selected?.id === connection.id ? 'teal.subtle' : undefined}>
                  <Text flex="1">
                    {connection.name} on {connection.host}:{connection.port} ({connection.sqltype}, {connection.username})
                  </Text>
                  <Button size="sm" variant="outline" onClick={() => void select(connection)} aria-label={`Select ${connection.name}`}>
                    Select
                  </Button>
                  <CloseButton size="sm" aria-label={`Delete connection ${connection.name}`} onClick={() => setDeleting(connection)} />
                </HStack>
              </List.Item>
            ))}
          </List.Root>
        )}
      </Stack>

      {selected && (
        <Stack gap="3" data-testid="connection-tables">
          <Text fontWeight="semibold" fontSize="lg">
            Tables of {selected.name}
          </Text>
          {tables === null && !tablesError && <LoadingState label="Loading tables…" />}
          {tablesError && <Message status="error" text={tablesError} />}
          {tables && tables.length === 0 && <Text color="fg.muted">This database has no tables.</Text>}
          {tables && tables.length > 0 && (
            <Table.Root size="sm" aria-label="Tables">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Table</Table.ColumnHeader>
                  <Table.ColumnHeader>Columns</Table.ColumnHeader>
                  <Table.ColumnHeader />
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {tables.map((table) => (
                  <Table.Row key={table.name}>
                    <Table.Cell fontWeight="medium">{table.name}</Table.Cell>
                    <Table.Cell>{table.columns.map((c) => `${c.name} (${c.type})`).join(', ')}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <Button size="sm" colorPalette="teal" onClick={() => void openTable(table.name)} aria-label={`Index Table ${table.name}`}>
                        Index Table
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Stack>
      )}

      {created.length > 0 && (
        <Alert.Root status="success" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>The record was created.</Alert.Title>
            <Box as="ul" ps="4" data-testid="created-records">
              {created.map((record) => (
                <li key={record.id}>
                  <RouterLink to={`/records/${record.id}`} style={{ textDecoration: 'underline' }}>
                    {record.name}
                  </RouterLink>
                </li>
              ))}
            </Box>
          </Alert.Content>
        </Alert.Root>
      )}

      {preview && (
        <ColumnSelectionModal
          open
          title={`Index ${preview.table}`}
          headers={preview.data.HEADERS}
          rows={preview.data.RAW}
          totalRows={preview.data.TOTAL_ROWS}
          variant="create"
          busy={indexing}
          error={indexError}
          onClose={() => setPreview(null)}
          onSubmit={(choices) => void createRecord(choices)}
        >
          {(choices) => (choices.some((c) => c.hash) ? <LinkageKeyPanel state={linkage} /> : null)}
        </ColumnSelectionModal>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete connection"
        message="Are you sure you want to delete this connection?"
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
