import { Alert, Button, EmptyState, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Organisation, UserAccount } from '../../api/types';
import { useAuth } from '../../auth/AuthProvider';
import { LoadingState } from '../../components/LoadingState';
import { Section } from '../../components/Section';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { TextField } from '../../forms/TextField';
import { EMAIL_PATTERN, requiredMessage, toApiError, useForm } from '../../forms/use-form';
import { PERMISSIONS } from '../../identity/constants';
import { identityApi } from '../../identity/identity-api';
import { toaster } from '../../shell/toaster';
import { WebhooksSection } from '../../webhooks/WebhooksSection';
import { accountKeys, identityKeys } from '../../shared/query-keys';
import { SingleSignOnSection } from './SingleSignOnSection';

const FIELDS = ['name', 'email', 'description'] as const;

function OrganisationForm({ organisation, canEdit }: { organisation: Organisation; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const updateOrganisation = useMutation({
    mutationFn: (body: { name: string; email: string; description: string }) => identityApi.updateOrganisation(organisation.id, body),
  });
  const form = useForm({ name: organisation.name ?? '', email: organisation.email ?? '', description: organisation.description ?? '' }, (values) => ({
    name: requiredMessage(values.name, 'Name is required.'),
    email: values.email.trim() && !EMAIL_PATTERN.test(values.email.trim()) ? 'Enter a valid email address.' : undefined,
  }));
  const submit = form.handleSubmit(async (values) => {
    const saved = await updateOrganisation.mutateAsync({
      name: values.name.trim(),
      email: values.email.trim(),
      description: values.description.trim(),
    });
    queryClient.setQueryData(identityKeys.organisation(organisation.id), { ...organisation, ...saved });
    // The top of the Profile tab shows the organisation's name from the user account.
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    toaster.create({ title: 'The organisation was saved.', type: 'success' });
  });
  const members = organisation.userprofile_set?.length;

  return (
    <form ref={form.formRef} noValidate onSubmit={canEdit ? submit : (event) => event.preventDefault()}>
      <Stack gap="4">
        {!canEdit && (
          <Alert.Root status="info" role="status">
            <Alert.Indicator />
            <Alert.Title>You can view your organisation but not edit it. An Access Admin of your organisation can.</Alert.Title>
          </Alert.Root>
        )}
        <ServerErrorAlert error={form.serverError} shownFields={FIELDS} />
        <TextField label="Name" autoComplete="organization" required readOnly={!canEdit} {...form.field('name')} />
        <TextField label="Email" type="email" autoComplete="email" readOnly={!canEdit} {...form.field('email')} />
        <TextField label="Description" multiline readOnly={!canEdit} {...form.field('description')} />
        {members !== undefined && (
          <Text fontSize="sm" color="fg.muted">
            {members === 1 ? '1 member' : `${members} members`}
          </Text>
        )}
        {canEdit && (
          <Button type="submit" colorPalette="teal" alignSelf="start" loading={form.submitting}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
}

/** The Organisation tab: editable only with account.change_organisation, read-only otherwise. */
export function OrganisationTab({ user }: { user: UserAccount }) {
  const { hasPermission } = useAuth();
  const id = user.organisation ?? user.organisation_details?.id;
  const query = useQuery({
    queryKey: identityKeys.organisation(id ?? ''),
    queryFn: ({ signal }) => identityApi.organisation(id ?? '', signal),
    enabled: id != null,
  });

  if (id == null) {
    return (
      <EmptyState.Root>
        <EmptyState.Content>
          <EmptyState.Title>No organisation</EmptyState.Title>
          <EmptyState.Description>Your account does not belong to an organisation.</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  return (
    <Stack gap="6">
      <Section title="Organisation" description="How your organisation appears to others when they request your data.">
        {query.isPending && <LoadingState label="Loading the organisation…" />}
        {query.isError && <ServerErrorAlert error={toApiError(query.error)} title="The organisation could not be loaded." />}
        {query.data && <OrganisationForm key={query.data.id} organisation={query.data} canEdit={hasPermission(PERMISSIONS.changeOrganisation)} />}
        <SingleSignOnSection user={user} />
      </Section>
      <WebhooksSection user={user} />
    </Stack>
  );
}
