import { useState, type FormEvent } from 'react';
import { Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormDialog } from '../components/FormDialog';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import type { ApiError } from '../api/client';
import { toaster } from '../shell/toaster';
import { FieldRows, type Row } from './FieldRows';
import { sharingApi } from './sharing-api';
import { GROUP_SAVED, NO_PERMISSION } from './texts';
import type { Group, GroupInput } from './types';
import { sharingKeys } from '../shared/query-keys';

/** The project modal (spec section 2, "Groups (projects)"): Name, Description, additional label/text fields, Save. */
export function GroupDialog({ group, open, onClose }: { group: Group | null; open: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const saveGroup = useMutation({
    mutationFn: (body: GroupInput & { groupName: string }) => (group ? sharingApi.updateGroup(group.id, body) : sharingApi.createGroup(body)),
  });
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [rows, setRows] = useState<Row[]>(Object.entries(group?.fields ?? {}).map(([label, text]) => ({ label, text })));
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    const body = {
      groupName: name.trim(),
      groupDescription: description,
      groupFields: rows.filter((r) => r.label.trim() || r.text.trim()).map((r) => ({ label: r.label.trim(), text: r.text })),
    };
    try {
      await saveGroup.mutateAsync(body);
      await queryClient.invalidateQueries({ queryKey: sharingKeys.groups });
      toaster.create({ type: 'success', title: GROUP_SAVED });
      onClose();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.status === 403) toaster.create({ type: 'error', title: NO_PERMISSION });
      setError(apiError);
    } finally {
      setSaving(false);
    }
  }

  return (
    <FormDialog open={open} title={group ? 'Edit Project' : 'New Project'} onClose={onClose} onSubmit={submit} submitLabel="Save" submitting={saving}>
      <TextField label="Name" name="groupName" required value={name} onChange={setName} error={error?.fieldError('groupName')} />
      <TextField
        label="Description"
        name="groupDescription"
        multiline
        value={description}
        onChange={setDescription}
        error={error?.fieldError('groupDescription')}
      />
      <Text fontWeight="medium" fontSize="sm">
        Additional fields
      </Text>
      <FieldRows rows={rows} onChange={setRows} />
      {error?.fieldError('groupFields') && (
        <Text color="fg.error" fontSize="sm">
          {error.fieldError('groupFields')}
        </Text>
      )}
      <ServerErrorAlert error={error} shownFields={['groupName', 'groupDescription', 'groupFields']} />
    </FormDialog>
  );
}
