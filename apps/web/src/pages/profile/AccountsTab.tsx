import { useState } from 'react';
import { Badge, Button, Checkbox, EmptyState, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../../api/client';
import type { Account, UserAccount } from '../../api/types';
import { useAuth } from '../../auth/AuthProvider';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadingState } from '../../components/LoadingState';
import { Section } from '../../components/Section';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { toApiError } from '../../forms/use-form';
import { GROUPS, PERMISSIONS } from '../../identity/constants';
import { identityApi } from '../../identity/identity-api';
import { toaster } from '../../shell/toaster';
import { EditAccountDialog, NewAccountDialog, SetPasswordDialog } from './AccountDialogs';
import { PlanCell } from './AccountPlan';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { accountKeys, identityKeys } from '../../shared/query-keys';

const ACCOUNT_COLUMNS: DataColumn[] = [
  'Account',
  'Email',
  'Plan',
  ...GROUPS.map((group) => ({ header: group.name, textAlign: 'center' as const })),
  { header: 'Actions', textAlign: 'end' },
];

function fullName(account: Account): string {
  return [account.first_name, account.last_name].filter(Boolean).join(' ');
}

/**
 * The Accounts tab (spec section 2): the organisation's accounts with their groups. New Account
 * needs account.add_userprofile, editing account.change_userprofile, deleting
 * account.delete_userprofile; nobody changes their own groups.
 */
export function AccountsTab({ user }: { user: UserAccount }) {
  const { hasPermission, clientType } = useAuth();
  const canAdd = hasPermission(PERMISSIONS.addAccount);
  const canChange = hasPermission(PERMISSIONS.changeAccount);
  const canDelete = hasPermission(PERMISSIONS.deleteAccount);
  const queryClient = useQueryClient();
  const setAccountGroups = useMutation({ mutationFn: ({ id, groups }: { id: string; groups: number[] }) => identityApi.setAccountGroups(id, groups) });
  const deleteAccount = useMutation({ mutationFn: identityApi.deleteAccount });
  const accounts = useQuery({ queryKey: identityKeys.accounts, queryFn: ({ signal }) => identityApi.accounts(signal) });

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Account | null>(null);
  const [settingPassword, setSettingPassword] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  const [deleteError, setDeleteError] = useState<ApiError | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [groupsError, setGroupsError] = useState<ApiError | null>(null);
  // The groups being saved, shown at once; dropped again when the server refuses them.
  const [pendingGroups, setPendingGroups] = useState<{ id: string; groups: number[] } | null>(null);

  const replaceAccount = (account: Account) =>
    queryClient.setQueryData<Account[]>(identityKeys.accounts, (list) => list?.map((item) => (item.id === account.id ? account : item)));

  async function toggleGroup(account: Account, groupId: number, checked: boolean) {
    const current = account.groups ?? [];
    const groups = checked ? [...new Set([...current, groupId])].sort() : current.filter((id) => id !== groupId);
    setGroupsError(null);
    setPendingGroups({ id: account.id, groups });
    try {
      const saved = await setAccountGroups.mutateAsync({ id: account.id, groups });
      replaceAccount({ ...account, groups: saved?.groups ?? groups });
      toaster.create({ title: `The groups of ${account.username} were updated.`, type: 'success' });
    } catch (error) {
      setGroupsError(toApiError(error));
    } finally {
      setPendingGroups(null);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteAccount.mutateAsync(deleting.id);
      queryClient.setQueryData<Account[]>(identityKeys.accounts, (list) => list?.filter((item) => item.id !== deleting.id));
      toaster.create({ title: `The account ${deleting.username} was deleted.`, type: 'success' });
      setDeleting(null);
    } catch (error) {
      setDeleteError(toApiError(error));
    } finally {
      setDeleteBusy(false);
    }
  }

  const list = accounts.data ?? [];

  return (
    <Section
      title="Accounts"
      description="The accounts of your organisation, their plans and the groups they belong to. You cannot change your own plan or group membership. On the BASIC plan, every record an account indexes is visible to everyone."
      actions={
        canAdd && (
          <Button colorPalette="teal" onClick={() => setCreating(true)}>
            New Account
          </Button>
        )
      }
    >
      <Stack gap="4">
        <ServerErrorAlert error={groupsError} title="The groups could not be updated." />
        {accounts.isPending && <LoadingState label="Loading accounts…" />}
        {accounts.isError && <ServerErrorAlert error={toApiError(accounts.error)} title="The accounts could not be loaded." />}
        {accounts.isSuccess && list.length === 0 && (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Title>No accounts yet</EmptyState.Title>
              <EmptyState.Description>{canAdd ? 'Create one with New Account.' : 'Your organisation has no other accounts.'}</EmptyState.Description>
            </EmptyState.Content>
          </EmptyState.Root>
        )}
        {list.length > 0 && (
          <DataTable label="Accounts" headers={ACCOUNT_COLUMNS}>
            {list.map((account) => {
              const own = account.id === user.id;
              const saving = pendingGroups?.id === account.id;
              const groups = saving ? pendingGroups.groups : (account.groups ?? []);
              return (
                <Table.Row key={account.id} data-testid={`account-${account.username}`}>
                  <Table.Cell>
                    <Text fontWeight="medium">
                      {account.username}{' '}
                      {own && (
                        <Badge size="sm" colorPalette="teal" variant="subtle">
                          You
                        </Badge>
                      )}
                      {account.active === false && (
                        <Badge size="sm" colorPalette="gray" ms="1">
                          Inactive
                        </Badge>
                      )}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {fullName(account)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>{account.email}</Table.Cell>
                  <Table.Cell>
                    <PlanCell account={account} editable={canChange && !own} own={clientType} onSaved={replaceAccount} />
                  </Table.Cell>
                  {GROUPS.map((group) => (
                    <Table.Cell key={group.id} textAlign="center">
                      <Checkbox.Root
                        colorPalette="teal"
                        checked={groups.includes(group.id)}
                        disabled={own || !canChange || saving}
                        onCheckedChange={(details) => toggleGroup(account, group.id, details.checked === true)}
                        title={own ? 'You cannot change your own group membership.' : undefined}
                      >
                        <Checkbox.HiddenInput aria-label={`${group.name} for ${account.username}`} />
                        <Checkbox.Control />
                      </Checkbox.Root>
                    </Table.Cell>
                  ))}
                  <Table.Cell>
                    <HStack gap="1" justify="end">
                      <Button size="xs" variant="outline" aria-label={`${canChange ? 'Edit' : 'View'} ${account.username}`} onClick={() => setEditing(account)}>
                        {canChange ? 'Edit' : 'View'}
                      </Button>
                      {/* One's own password changes on the Profile tab, with the current password. */}
                      {canChange && !own && (
                        <Button size="xs" variant="outline" aria-label={`Set password of ${account.username}`} onClick={() => setSettingPassword(account)}>
                          Set password
                        </Button>
                      )}
                      {canDelete && !own && (
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          aria-label={`Delete ${account.username}`}
                          onClick={() => {
                            setDeleteError(null);
                            setDeleting(account);
                          }}
                        >
                          Delete
                        </Button>
                      )}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </DataTable>
        )}
      </Stack>

      <NewAccountDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(username) => {
          toaster.create({ title: `The account ${username} was created.`, type: 'success' });
          void queryClient.invalidateQueries({ queryKey: identityKeys.accounts });
        }}
      />
      <EditAccountDialog
        account={editing}
        editable={canChange}
        onClose={() => setEditing(null)}
        onSaved={(account) => {
          replaceAccount(account);
          // Editing oneself changes the name shown on the Profile tab too.
          if (account.id === user.id) void queryClient.invalidateQueries({ queryKey: accountKeys.all });
          toaster.create({ title: `The account ${account.username} was saved.`, type: 'success' });
        }}
      />
      <SetPasswordDialog
        account={settingPassword}
        onClose={() => setSettingPassword(null)}
        onDone={() => toaster.create({ title: `The password of ${settingPassword?.username ?? 'the account'} was set.`, type: 'success' })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? `Delete ${deleting.username}` : 'Delete account'}
        message="Are you sure you want to delete this account?"
        confirmLabel="Delete"
        busy={deleteBusy}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        <ServerErrorAlert error={deleteError} />
      </ConfirmDialog>
    </Section>
  );
}
