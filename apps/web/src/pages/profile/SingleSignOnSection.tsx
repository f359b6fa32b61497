import { useState } from 'react';
import { Alert, Box, Button, Heading, HStack, Separator, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientType, UserAccount } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyableValue } from '../../components/CopyableValue';
import { LoadingState } from '../../components/LoadingState';
import { SelectField } from '../../components/SelectField';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { TextField } from '../../forms/TextField';
import { requiredMessage, toApiError, useForm } from '../../forms/use-form';
import { ssoKeys } from '../../identity/SingleSignOnButtons';
import { ssoApi, type SsoSettings } from '../../identity/sso-api';
import { toaster } from '../../shell/toaster';

const DATA_ADMIN = 2;
const FIELDS = ['name', 'issuer', 'client_id', 'client_secret', 'allowed_domains', 'client_type'] as const;
const PLANS = [
  ['Basic', 'BASIC'],
  ['Standard', 'STANDARD'],
] as const;

const splitDomains = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);

function SettingsForm({ settings }: { settings: SsoSettings }) {
  const queryClient = useQueryClient();
  const provider = settings.provider;
  const [confirmRemove, setConfirmRemove] = useState(false);
  const form = useForm(
    {
      name: provider?.name ?? '',
      issuer: provider?.issuer ?? '',
      client_id: provider?.client_id ?? '',
      client_secret: '',
      allowed_domains: provider?.allowed_domains.join(', ') ?? '',
      client_type: provider?.client_type ?? 'BASIC',
    },
    (values) => ({
      name: requiredMessage(values.name, 'A name is required.'),
      issuer: requiredMessage(values.issuer, 'The issuer URL is required.'),
      client_id: requiredMessage(values.client_id, 'The client id is required.'),
      client_secret: provider ? undefined : requiredMessage(values.client_secret, 'The client secret is required.'),
      allowed_domains: splitDomains(values.allowed_domains).length ? undefined : 'List at least one email domain.',
    }),
  );
  const refresh = async (next: SsoSettings) => {
    queryClient.setQueryData(ssoKeys.settings, next);
    await queryClient.invalidateQueries({ queryKey: ssoKeys.providers });
  };
  const submit = form.handleSubmit(async (values) => {
    const saved = await ssoApi.saveSettings({
      name: values.name.trim(),
      issuer: values.issuer.trim(),
      client_id: values.client_id.trim(),
      ...(values.client_secret ? { client_secret: values.client_secret } : {}),
      allowed_domains: splitDomains(values.allowed_domains),
      client_type: values.client_type as ClientType,
    });
    await refresh(saved);
    form.setValue('client_secret', '');
    toaster.create({ title: 'The single sign-on settings were saved.', type: 'success' });
  });
  const remove = useMutation({
    mutationFn: () => ssoApi.removeSettings(),
    onSuccess: async () => {
      setConfirmRemove(false);
      await refresh({ ...settings, provider: null });
      toaster.create({ title: 'Single sign-on was removed.', type: 'success' });
    },
  });

  return (
    <form ref={form.formRef} noValidate onSubmit={submit} aria-label="Single sign-on settings">
      <Stack gap="4">
        <CopyableValue label="Redirect URI to register at your provider" value={settings.redirect_uri} />
        <ServerErrorAlert error={form.serverError} shownFields={FIELDS} />
        <TextField label="Name shown on the login screen" required helperText='People see "Sign in with <name>".' {...form.field('name')} />
        <TextField label="Issuer URL" required placeholder="https://sso.example.org/realms/example" {...form.field('issuer')} />
        <TextField label="Client ID" required autoComplete="off" {...form.field('client_id')} />
        <TextField
          label="Client secret"
          type="password"
          autoComplete="new-password"
          required={!provider}
          helperText={provider ? 'A secret is stored (it is never shown). Leave blank to keep it.' : 'Stored encrypted; never shown again.'}
          {...form.field('client_secret')}
        />
        <TextField
          label="Allowed email domains"
          required
          placeholder="example.org, lab.example.org"
          helperText="Only people whose email is in one of these domains may sign in. Separate domains with commas."
          {...form.field('allowed_domains')}
        />
        <SelectField
          label="Plan of accounts made at first sign-in"
          options={PLANS}
          helperText="New accounts join your organisation as Data Viewers; an Access Admin can change their groups."
          {...form.field('client_type')}
        />
        <HStack gap="3">
          <Button type="submit" colorPalette="teal" loading={form.submitting}>
            {provider ? 'Save single sign-on' : 'Turn on single sign-on'}
          </Button>
          {provider && (
            <Button variant="outline" colorPalette="red" onClick={() => setConfirmRemove(true)}>
              Remove
            </Button>
          )}
        </HStack>
      </Stack>
      <ConfirmDialog
        open={confirmRemove}
        title="Remove single sign-on"
        message="Are you sure? People will no longer be able to sign in with this provider. Their accounts stay."
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmRemove(false)}
      >
        {remove.isError && <ServerErrorAlert error={toApiError(remove.error)} />}
      </ConfirmDialog>
    </form>
  );
}

/**
 * Single sign-on with the organisation's OpenID Connect provider (docs/single-sign-on.md), for the
 * organisation's Data Admins only: others see nothing of it.
 */
export function SingleSignOnSection({ user }: { user: UserAccount }) {
  const isDataAdmin = user.groups.includes(DATA_ADMIN);
  const query = useQuery({ queryKey: ssoKeys.settings, queryFn: ({ signal }) => ssoApi.settings(signal), enabled: isDataAdmin });
  if (!isDataAdmin) return null;
  return (
    <Stack gap="4" as="section" aria-labelledby="sso-heading" mt="6">
      <Separator />
      <Box>
        <Heading as="h3" size="sm" id="sso-heading">
          Single sign-on
        </Heading>
        <Text fontSize="sm" color="fg.muted" mt="1">
          Let your people sign in with your organisation&apos;s identity provider (OpenID Connect: Keycloak, Entra ID, Google…). Their account is made at their
          first sign-in.
        </Text>
      </Box>
      {query.isPending && <LoadingState label="Loading the single sign-on settings…" />}
      {query.isError && <ServerErrorAlert error={toApiError(query.error)} title="The single sign-on settings could not be loaded." />}
      {query.data && !query.data.provider && (
        <Alert.Root status="info" role="status">
          <Alert.Indicator />
          <Alert.Title>Single sign-on is off: only passwords are used.</Alert.Title>
        </Alert.Root>
      )}
      {query.data && <SettingsForm key={query.data.provider?.updated_at ?? 'new'} settings={query.data} />}
    </Stack>
  );
}
