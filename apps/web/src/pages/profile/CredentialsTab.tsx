import { Alert, Box, Button, Code, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CopyableValue } from '../../components/CopyableValue';
import { LoadingState } from '../../components/LoadingState';
import { Section } from '../../components/Section';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { TextField } from '../../forms/TextField';
import { requiredMessage, toApiError, useForm } from '../../forms/use-form';
import { identityApi } from '../../identity/identity-api';
import { formatDate } from '../../lib/format';
import { toaster } from '../../shell/toaster';
import { identityKeys } from '../../shared/query-keys';

function CodeBlock({ children, label }: { children: string; label: string }) {
  return (
    // On a phone the command scrolls sideways: the block takes the focus so the keyboard can scroll it too.
    <Box as="pre" p="3" borderRadius="md" bg="bg.muted" overflowX="auto" fontSize="sm" tabIndex={0} aria-label={label}>
      <Code variant="plain" bg="transparent" p="0" whiteSpace="pre">
        {children}
      </Code>
    </Box>
  );
}

/**
 * The Credentials tab: an API token and secret, exchanged at the token endpoint for a JWT so scripts
 * need not hold a person's password (architecture section 8). A new pair replaces the old one. The
 * secret is shown once, right after it was made; later visits say that a pair exists and when.
 */
export function CredentialsTab() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: identityKeys.apiKeys, queryFn: ({ signal }) => identityApi.apiKeys(signal) });
  // The answer that made the pair: the only time its secret is known here.
  const [fresh, setFresh] = useState<{ token: string; secret: string } | null>(null);
  const form = useForm({ password: '' }, ({ password }) => ({ password: requiredMessage(password, 'Password is required.') }));
  const createApiKeys = useMutation({ mutationFn: identityApi.createApiKeys });
  const submit = form.handleSubmit(async ({ password }) => {
    const pair = await createApiKeys.mutateAsync(password);
    if (pair.api_token && pair.api_secret) setFresh({ token: pair.api_token, secret: pair.api_secret });
    queryClient.setQueryData(identityKeys.apiKeys, { ...pair, api_secret: null });
    form.reset();
    toaster.create({ title: 'New API credentials were created.', type: 'success' });
  });
  const existing = keys.data?.api_token ? { token: keys.data.api_token, created: keys.data.created } : null;
  const origin = window.location.origin;

  return (
    <Stack gap="6">
      <Section title="API credentials" description="Use these instead of your password in scripts and integrations.">
        <Stack gap="5">
          {keys.isPending && <LoadingState label="Loading your API credentials…" />}
          {keys.isError && <ServerErrorAlert error={toApiError(keys.error)} title="Your API credentials could not be loaded." />}
          {keys.isSuccess &&
            (fresh ? (
              <Stack gap="4" data-testid="api-credentials">
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Alert.Title>Copy the API secret now: it is shown only once.</Alert.Title>
                </Alert.Root>
                <CopyableValue label="API token" value={fresh.token} />
                <CopyableValue label="API secret" value={fresh.secret} />
              </Stack>
            ) : existing ? (
              <Stack gap="4" data-testid="api-credentials">
                <CopyableValue label="API token" value={existing.token} />
                <Text color="fg.muted" data-testid="api-secret-created">
                  Your API secret was created on {formatDate(existing.created)}. It is not shown again: if it is lost, create new credentials.
                </Text>
              </Stack>
            ) : (
              <Text color="fg.muted">You have no API credentials yet.</Text>
            ))}
          <form ref={form.formRef} noValidate onSubmit={submit}>
            <Stack gap="4" maxW="sm">
              <ServerErrorAlert error={form.serverError} shownFields={['password']} />
              <TextField
                label="Password"
                type="password"
                autoComplete="current-password"
                required
                helperText={existing ? 'Confirm with your password. The new pair replaces the one above.' : 'Confirm with your password.'}
                {...form.field('password')}
              />
              <Button type="submit" colorPalette="teal" alignSelf="start" loading={form.submitting}>
                {existing ? 'Create new credentials' : 'Get API credentials'}
              </Button>
            </Stack>
          </form>
        </Stack>
      </Section>
      <Section title="Using the API">
        <Stack gap="3" fontSize="sm">
          <Text>
            Exchange your credentials for a token at the token endpoint <Code>POST {origin}/api-token-auth/</Code>. It takes a <Code>username</Code> and a{' '}
            <Code>password</Code>: either your own, or the API token as the username and the API secret as the password. The answer is{' '}
            <Code>{'{"token": "…"}'}</Code>; the token is valid for 24 hours.
          </Text>
          <CodeBlock label="Example: get a token">{`curl -X POST ${origin}/api-token-auth/ \\
  -H 'Content-Type: application/json' \\
  -d '{"username": "<api_token>", "password": "<api_secret>"}'`}</CodeBlock>
          <Text>Then send the token with every call, in an Authorization header of the form JWT followed by the token:</Text>
          <CodeBlock label="Example: list records with the token">{`curl ${origin}/api/records/ \\
  -H 'Authorization: JWT <token>'`}</CodeBlock>
        </Stack>
      </Section>
    </Stack>
  );
}
