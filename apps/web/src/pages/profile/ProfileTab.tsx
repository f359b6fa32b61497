import { Badge, Button, DataList, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { UserAccount } from '../../api/types';
import { useAuth, useLogout } from '../../auth/AuthProvider';
import { Section } from '../../components/Section';
import { formatDate } from '../../lib/format';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { TextField } from '../../forms/TextField';
import { requiredMessage, useForm } from '../../forms/use-form';
import { groupName } from '../../identity/constants';
import { identityApi } from '../../identity/identity-api';
import { toaster } from '../../shell/toaster';
import type { LoginNotice } from '../LoginPage';
import { accountKeys } from '../../shared/query-keys';

function AccountSummary({ user }: { user: UserAccount }) {
  const logout = useLogout();
  return (
    <Section
      title="Your account"
      description={<>Signed in as {user.username}</>}
      actions={
        <Button variant="outline" colorPalette="red" onClick={logout}>
          Logout
        </Button>
      }
    >
      <DataList.Root orientation="horizontal" size="sm">
        <DataList.Item>
          <DataList.ItemLabel>Email</DataList.ItemLabel>
          <DataList.ItemValue>{user.email || '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Organisation</DataList.ItemLabel>
          <DataList.ItemValue>{user.organisation_details?.name || '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Plan</DataList.ItemLabel>
          <DataList.ItemValue>
            <Badge colorPalette={user.client_type === 'BASIC' ? 'orange' : 'teal'}>{user.client_type ?? 'unknown'}</Badge>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Groups</DataList.ItemLabel>
          <DataList.ItemValue>
            {user.groups?.length ? (
              <HStack gap="1" wrap="wrap">
                {user.groups.map((id) => (
                  <Badge key={id} variant="surface">
                    {groupName(id)}
                  </Badge>
                ))}
              </HStack>
            ) : (
              'None'
            )}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
    </Section>
  );
}

function PersonalInformation({ user }: { user: UserAccount }) {
  const queryClient = useQueryClient();
  const changeProfile = useMutation({ mutationFn: identityApi.changeProfile, onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }) });
  const form = useForm({ first_name: user.first_name ?? '', last_name: user.last_name ?? '' }, (values) => ({
    first_name: requiredMessage(values.first_name, 'First Name is required'),
    last_name: requiredMessage(values.last_name, 'Last Name is required'),
  }));
  const submit = form.handleSubmit(async (values) => {
    await changeProfile.mutateAsync({ first_name: values.first_name.trim(), last_name: values.last_name.trim() });
    toaster.create({ title: 'Your personal information was saved.', type: 'success' });
  });
  return (
    <Section title="Personal Information">
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <Stack gap="4">
          <ServerErrorAlert error={form.serverError} shownFields={['first_name', 'last_name']} />
          <TextField label="First name" autoComplete="given-name" required {...form.field('first_name')} />
          <TextField label="Last name" autoComplete="family-name" required {...form.field('last_name')} />
          <Button type="submit" colorPalette="teal" alignSelf="start" loading={form.submitting}>
            Save
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

function ChangePassword({ username }: { username: string }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const changePassword = useMutation({ mutationFn: identityApi.changePassword });
  const form = useForm({ old_password: '', new_password: '', new_password_confirm: '' }, (values) => ({
    old_password: requiredMessage(values.old_password, 'Current password is required.'),
    new_password: requiredMessage(values.new_password, 'New password is required.'),
    new_password_confirm:
      requiredMessage(values.new_password_confirm, 'Please confirm the new password.') ??
      (values.new_password_confirm === values.new_password ? undefined : "Passwords don't match."),
  }));
  const submit = form.handleSubmit(async (values) => {
    const answer: { message?: string } | undefined = await changePassword.mutateAsync(values);
    // The server has revoked every earlier token, this session's included (spec section 8).
    signOut();
    const state: LoginNotice = { notice: answer?.message ?? 'Your password was changed. Please log in with your new password.' };
    navigate('/login', { replace: true, state });
  });
  return (
    <Section title="Change Password" description="You will be logged out after the change.">
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <Stack gap="4">
          <ServerErrorAlert error={form.serverError} shownFields={['old_password', 'new_password', 'new_password_confirm']} />
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <TextField label="Current password" type="password" autoComplete="current-password" required {...form.field('old_password')} />
          <TextField label="New password" type="password" autoComplete="new-password" required {...form.field('new_password')} />
          <TextField label="Confirm new password" type="password" autoComplete="new-password" required {...form.field('new_password_confirm')} />
          <Button type="submit" colorPalette="teal" alignSelf="start" loading={form.submitting}>
            Change Password
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/** The Profile tab: logout, Personal Information, Change Password. */
export function ProfileTab({ user }: { user: UserAccount }) {
  return (
    <Stack gap="6">
      <AccountSummary user={user} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <PersonalInformation user={user} />
        <ChangePassword username={user.username} />
      </SimpleGrid>
      {user.date_joined && (
        <Text fontSize="xs" color="fg.subtle">
          Member since {formatDate(user.date_joined)}
        </Text>
      )}
    </Stack>
  );
}
