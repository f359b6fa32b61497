import { useState } from 'react';
import { Alert, Checkbox, Link, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { FormDialog } from '../components/FormDialog';
import { LoadingState } from '../components/LoadingState';
import { toApiError } from '../forms/use-form';

import { toaster } from '../shell/toaster';
import { sharingApi } from './sharing-api';
import { GROUP_NOT_RETRIEVED, NO_PROJECTS } from './texts';
import { recordKeys, sharingKeys } from '../shared/query-keys';

/** The projects modal of a record card (add to project): a checkbox per project of the organisation. */
export function ProjectDialog({ recordId, recordName, onClose }: { recordId: string; recordName: string; onClose(): void }) {
  const queryClient = useQueryClient();
  const updateGroup = useMutation({
    mutationFn: ({ groupId, add }: { groupId: string; add: boolean }) =>
      sharingApi.updateGroup(groupId, add ? { addRecordIds: [recordId] } : { removeRecordIds: [recordId] }),
  });
  const groups = useQuery({ queryKey: sharingKeys.groupList(recordId), queryFn: ({ signal }) => sharingApi.groups(recordId, signal) });
  const [saving, setSaving] = useState<string | null>(null);

  async function toggle(groupId: string, add: boolean) {
    setSaving(groupId);
    try {
      await updateGroup.mutateAsync({ groupId, add });
      await queryClient.invalidateQueries({ queryKey: sharingKeys.groups });
      void queryClient.invalidateQueries({ queryKey: recordKeys.detail(recordId) });
      toaster.create({ type: 'success', title: add ? 'The record was added to the project.' : 'The record was removed from the project.' });
    } catch (error) {
      toaster.create({ type: 'error', title: toApiError(error).message });
    } finally {
      setSaving(null);
    }
  }

  const list = groups.data?.groups ?? [];
  const checked = new Set(groups.data?.checked ?? []);
  return (
    <FormDialog open title={`Projects of ${recordName}`} onClose={onClose}>
      {groups.isPending && <LoadingState label="Loading projects…" />}
      {groups.isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{GROUP_NOT_RETRIEVED}</Alert.Title>
        </Alert.Root>
      )}
      {groups.isSuccess && list.length === 0 && (
        <Text color="fg.muted">
          {NO_PROJECTS}{' '}
          <Link asChild colorPalette="teal">
            <RouterLink to="/groups">Create one</RouterLink>
          </Link>
        </Text>
      )}
      <Stack gap="2">
        {list.map((group) => (
          <Checkbox.Root
            key={group.id}
            colorPalette="teal"
            checked={checked.has(group.id)}
            disabled={saving !== null}
            onCheckedChange={(d) => void toggle(group.id, d.checked === true)}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{group.name}</Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
    </FormDialog>
  );
}
