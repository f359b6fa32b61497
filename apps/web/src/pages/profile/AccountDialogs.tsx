import { Alert, Checkbox, Fieldset, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Account } from '../../api/types';
import { FormDialog } from '../../components/FormDialog';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { TextField } from '../../forms/TextField';
import { requiredMessage, useForm } from '../../forms/use-form';
import { emailMessage, NewAccountFields, newAccountMessages, type NewAccountValues, passwordMessages } from '../../identity/AccountFields';
import { GROUPS } from '../../identity/constants';
import { identityApi } from '../../identity/identity-api';
import { useAuth } from '../../auth/AuthProvider';
import type { ClientType } from '../../api/types';
import { PlanField } from './AccountPlan';

interface NewAccountDialogProps {
  open: boolean;
  onClose(): void;
  onCreated(username: string): void;
}

const NEW_ACCOUNT_FIELDS = ['username', 'email', 'first_name', 'last_name', 'password', 'groups', 'client_type'] as const;

/** New Account: a sub-account of the organisation, BASIC unless chosen otherwise (spec section 2, Accounts). */
export function NewAccountDialog({ open, onClose, onCreated }: NewAccountDialogProps) {
  const createAccount = useMutation({ mutationFn: identityApi.createAccount });
  const [groups, setGroups] = useState<number[]>([3]);
  const [plan, setPlan] = useState<ClientType>('BASIC');
  const { clientType } = useAuth();
  const form = useForm<NewAccountValues>({ username: '', email: '', first_name: '', last_name: '', password: '', password_confirm: '' }, newAccountMessages);
  const close = () => {
    form.reset();
    setGroups([3]);
    setPlan('BASIC');
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    const username = values.username.trim();
    await createAccount.mutateAsync({
      username,
      email: values.email.trim(),
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      password: values.password,
      password_confirm: values.password_confirm,
      client_type: plan,
      groups,
    });
    onCreated(username);
    close();
  });
  const groupsError = form.serverError?.fieldError('groups');

  return (
    <FormDialog
      open={open}
      title="New Account"
      onClose={close}
      onSubmit={submit}
      formRef={form.formRef}
      submitLabel="Create Account"
      submitting={form.submitting}
    >
      <ServerErrorAlert error={form.serverError} shownFields={NEW_ACCOUNT_FIELDS} />
      <NewAccountFields field={form.field} own={false} />
      <Fieldset.Root invalid={!!groupsError}>
        <Fieldset.Legend>Groups</Fieldset.Legend>
        <Stack gap="2" mt="2">
          {GROUPS.map((group) => (
            <Checkbox.Root
              key={group.id}
              colorPalette="teal"
              checked={groups.includes(group.id)}
              onCheckedChange={(details) =>
                setGroups((current) => (details.checked === true ? [...current, group.id].sort() : current.filter((id) => id !== group.id)))
              }
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{group.name}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Stack>
        <Fieldset.ErrorText>{groupsError}</Fieldset.ErrorText>
      </Fieldset.Root>
      <PlanField value={plan} onChange={setPlan} own={clientType} error={form.serverError?.fieldError('client_type')} />
      {plan === 'BASIC' && (
        <Alert.Root status="warning" size="sm" data-testid="basic-plan-warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Records of a BASIC account are visible to everyone.</Alert.Title>
            <Alert.Description>
              Anyone, visitors who are not signed in included, can find them. Choose STANDARD if this person indexes data that must stay private.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </FormDialog>
  );
}

interface EditAccountDialogProps {
  account: Account | null;
  /** Without account.change_userprofile the dialog only shows the account. */
  editable: boolean;
  onClose(): void;
  onSaved(account: Account): void;
}

const EDIT_ACCOUNT_FIELDS = ['username', 'email', 'first_name', 'last_name'] as const;

function EditAccountForm({ account, editable, onClose, onSaved }: EditAccountDialogProps & { account: Account }) {
  const updateAccount = useMutation({ mutationFn: (body: Parameters<typeof identityApi.updateAccount>[1]) => identityApi.updateAccount(account.id, body) });
  const form = useForm(
    { username: account.username, email: account.email ?? '', first_name: account.first_name ?? '', last_name: account.last_name ?? '' },
    (values) => ({
      email: emailMessage(values.email),
      first_name: requiredMessage(values.first_name, 'First Name is required'),
      last_name: requiredMessage(values.last_name, 'Last Name is required'),
    }),
  );
  const submit = form.handleSubmit(async (values) => {
    const saved = await updateAccount.mutateAsync({
      username: account.username,
      email: values.email.trim(),
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
    });
    onSaved({ ...account, ...values, ...saved });
    onClose();
  });
  return (
    <FormDialog
      open
      title={editable ? `Edit ${account.username}` : account.username}
      onClose={onClose}
      onSubmit={editable ? submit : undefined}
      formRef={form.formRef}
      submitLabel={editable ? 'Save' : undefined}
      submitting={form.submitting}
    >
      <ServerErrorAlert error={form.serverError} shownFields={EDIT_ACCOUNT_FIELDS} />
      <TextField label="Username" readOnly {...form.field('username')} />
      <TextField label="Email" type="email" autoComplete="off" required readOnly={!editable} {...form.field('email')} />
      <TextField label="First name" autoComplete="off" required readOnly={!editable} {...form.field('first_name')} />
      <TextField label="Last name" autoComplete="off" required readOnly={!editable} {...form.field('last_name')} />
    </FormDialog>
  );
}

/** Edits (or, without the permission, shows) one account's details. */
export function EditAccountDialog(props: EditAccountDialogProps) {
  // Keyed by account so each opening starts from that account's values.
  return props.account ? <EditAccountForm key={props.account.id} {...props} account={props.account} /> : null;
}

function SetPasswordForm({ account, onClose, onDone }: { account: Account; onClose(): void; onDone(): void }) {
  const setAccountPassword = useMutation({
    mutationFn: (body: { new_password: string; new_password_confirm: string }) => identityApi.setAccountPassword(account.id, body),
  });
  const form = useForm({ new_password: '', new_password_confirm: '' }, (values) =>
    passwordMessages(values.new_password, values.new_password_confirm, ['new_password', 'new_password_confirm']),
  );
  const submit = form.handleSubmit(async (values) => {
    await setAccountPassword.mutateAsync(values);
    onDone();
    onClose();
  });
  return (
    <FormDialog
      open
      title={`Set password of ${account.username}`}
      onClose={onClose}
      onSubmit={submit}
      formRef={form.formRef}
      submitLabel="Set Password"
      submitting={form.submitting}
    >
      <ServerErrorAlert error={form.serverError} shownFields={['new_password', 'new_password_confirm']} />
      <input type="text" name="username" autoComplete="username" value={account.username} readOnly hidden />
      <TextField label="New password" type="password" autoComplete="new-password" required {...form.field('new_password')} />
      <TextField label="Confirm new password" type="password" autoComplete="new-password" required {...form.field('new_password_confirm')} />
    </FormDialog>
  );
}

export function SetPasswordDialog({ account, onClose, onDone }: { account: Account | null; onClose(): void; onDone(): void }) {
  return account ? <SetPasswordForm key={account.id} account={account} onClose={onClose} onDone={onDone} /> : null;
}
