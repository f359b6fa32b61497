import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SelectField } from '../components/SelectField';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import { sourceKeys } from '../shared/query-keys';
import { type Connection, type ConnectionForm as ConnectionValues, connectionsApi, type SqlType } from './sources-api';

// Spec section 8 (Connections), word for word.
export const TESTING_FAILED = 'Testing connection failed...';
export const TESTING_ERROR = 'Testing connection error...';
export const ADDING_FAILED = 'Adding connection failed...';

/** The port each database type listens on unless its operator chose another. */
export const DEFAULT_PORTS: Record<SqlType, string> = { postgresql: '5432', mysql: '3306' };
/** How long a test waits for the database (the server's limit, README "SQL tables"). */
const TEST_LIMIT_S = 5;

const INITIAL: ConnectionValues = { sqltype: 'postgresql', host: '', name: '', username: '', password: '', port: DEFAULT_PORTS.postgresql };
const TYPES: Array<[string, SqlType]> = [
  ['PostgreSQL', 'postgresql'],
  ['MySQL / MariaDB', 'mysql'],
];
const sqlTypeOf = (value: string): SqlType => TYPES.find(([, code]) => code === value)?.[1] ?? 'postgresql';

/** A title (the spec's words when it fixes them) and, for failures, what failed. */
type Message = { status: 'error' | 'success'; text: string; detail?: string };

/** The server's words for what failed, without its leading "Connecting to the database failed.". */
const failureOf = (error: unknown) => {
  const detail = toApiError(error).detail;
  return detail ? detail.replace(/^Connecting to the database failed\.\s*/, '') || undefined : undefined;
};

/** Add data → Index Database Table, the new connection: Test, then Connect once the test passed (spec section 2). */
export function ConnectionForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ConnectionValues>(INITIAL);
  const [passed, setPassed] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const test = useMutation({
    mutationFn: connectionsApi.test,
    onMutate: () => setMessage(null),
    onSuccess: (answer) => {
      setPassed(answer.pass);
      setMessage(answer.pass ? { status: 'success', text: 'The connection test passed.' } : { status: 'error', text: TESTING_FAILED, detail: answer.detail });
    },
    onError: (error) => {
      setPassed(false);
      setMessage({ status: 'error', text: TESTING_ERROR, detail: toApiError(error).message || undefined });
    },
  });
  const create = useMutation({
    mutationFn: connectionsApi.create,
    onMutate: () => setMessage(null),
    onSuccess: (connection) => {
      queryClient.setQueryData<{ results: Connection[] }>(sourceKeys.connections, (page) => page && { ...page, results: [...page.results, connection] });
      void queryClient.invalidateQueries({ queryKey: sourceKeys.connections });
      setForm(INITIAL);
      setPassed(false);
      setMessage({ status: 'success', text: `The connection to ${connection.name} was added.` });
    },
    onError: (error) => setMessage({ status: 'error', text: ADDING_FAILED, detail: failureOf(error) }),
  });

  // A changed form must pass its test again before Connect.
  const set = <K extends keyof ConnectionValues>(key: K, value: ConnectionValues[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setPassed(false);
  };
  // The port follows the database type until the user types one of their own.
  const setType = (sqltype: SqlType) => {
    setForm((current) => {
      const ownPort = current.port.trim() !== '' && current.port.trim() !== DEFAULT_PORTS[current.sqltype];
      return { ...current, sqltype, port: ownPort ? current.port : DEFAULT_PORTS[sqltype] };
    });
    setPassed(false);
  };
  const connect = (event: FormEvent) => {
    event.preventDefault();
    if (passed && !create.isPending) create.mutate(form);
  };

  return (
    <form noValidate onSubmit={connect} aria-label="New connection">
      <Stack gap="4">
        <Text fontWeight="semibold" fontSize="lg">
          New connection
        </Text>
        <SelectField label="Database type" name="sqltype" value={form.sqltype} options={TYPES} onChange={(v) => setType(sqlTypeOf(v))} />
        <HStack gap="4" align="start">
          <TextField label="Host" name="host" value={form.host} onChange={(v) => set('host', v)} placeholder="db.example.org" />
          <Box maxW="32">
            <TextField label="Port" name="port" value={form.port} onChange={(v) => set('port', v)} />
          </Box>
        </HStack>
        <TextField label="Database name" name="name" value={form.name} onChange={(v) => set('name', v)} />
        <HStack gap="4" align="start">
          <TextField label="Username" name="username" autoComplete="off" value={form.username} onChange={(v) => set('username', v)} />
          <TextField label="Password" name="password" type="password" autoComplete="new-password" value={form.password} onChange={(v) => set('password', v)} />
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          The catalogue reads the database with a read-only session. Give it a user that may only read. The password is stored encrypted and never shown again.
          A test waits at most {TEST_LIMIT_S} s for the database to answer.
        </Text>
        {message && (
          <Alert.Root status={message.status} role={message.status === 'error' ? 'alert' : 'status'} data-testid="connection-message">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{message.text}</Alert.Title>
              {message.detail && <Alert.Description>{message.detail}</Alert.Description>}
            </Alert.Content>
          </Alert.Root>
        )}
        <HStack>
          <Button
            variant="outline"
            onClick={() => test.mutate(form)}
            loading={test.isPending}
            loadingText="Testing…"
            disabled={!form.host.trim() || !form.name.trim() || !form.username.trim()}
          >
            Test
          </Button>
          <Button type="submit" colorPalette="teal" disabled={!passed} loading={create.isPending}>
            Connect
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
