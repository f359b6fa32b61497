import { useState, type FormEvent } from 'react';
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SelectField } from '../components/SelectField';
import { StatusAlert } from '../components/StatusAlert';
import { TextField } from '../forms/TextField';
import { sourceKeys } from '../shared/query-keys';
import { type Connection, type ConnectionForm as ConnectionValues, connectionsApi, type SqlType } from './sources-api';

// Spec section 8 (Connections), word for word.
export const TESTING_FAILED = 'Testing connection failed...';
export const TESTING_ERROR = 'Testing connection error...';
export const ADDING_FAILED = 'Adding connection failed...';

const INITIAL: ConnectionValues = { sqltype: 'postgresql', host: '', name: '', username: '', password: '', port: '5432' };
const TYPES: Array<[string, SqlType]> = [
  ['PostgreSQL', 'postgresql'],
  ['MySQL / MariaDB', 'mysql'],
];
const sqlTypeOf = (value: string): SqlType => TYPES.find(([, code]) => code === value)?.[1] ?? 'postgresql';

type Message = { status: 'error' | 'success'; text: string };

/** Add data → Index Database Table, the new connection: Test, then Connect once the test passed (spec section 2). */
export function ConnectionForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ConnectionValues>(INITIAL);
  const [passed, setPassed] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const test = useMutation({
    mutationFn: connectionsApi.test,
    onMutate: () => setMessage(null),
    onSuccess: ({ pass }) => {
      setPassed(pass);
      setMessage(pass ? { status: 'success', text: 'The connection test passed.' } : { status: 'error', text: TESTING_FAILED });
    },
    onError: () => {
      setPassed(false);
      setMessage({ status: 'error', text: TESTING_ERROR });
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
    onError: () => setMessage({ status: 'error', text: ADDING_FAILED }),
  });

  // A changed form must pass its test again before Connect.
  const set = <K extends keyof ConnectionValues>(key: K, value: ConnectionValues[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
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
        <SelectField label="Database type" name="sqltype" value={form.sqltype} options={TYPES} onChange={(v) => set('sqltype', sqlTypeOf(v))} />
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
        </Text>
        {message && <StatusAlert status={message.status} text={message.text} />}
        <HStack>
          <Button
            variant="outline"
            onClick={() => test.mutate(form)}
            loading={test.isPending}
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
