import { useState, type FormEvent } from 'react';
import { Button, HStack, IconButton, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../api/client';
import { DeleteIcon } from '../components/icons';
import { FormDialog } from '../components/FormDialog';
import { HeadedTable } from '../components/DataTable';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { sharingApi } from './sharing-api';
import { NO_PERMISSION, POLICY_NOT_CREATED, POLICY_SAVED } from './texts';
import type { Policy, PolicyInput, PolicyRequirement } from './types';
import { sharingKeys } from '../shared/query-keys';

const emptyRow = (): PolicyRequirement => ({ topic: '', requirement: '', agree: 'yes' });

/** The access policy modal (spec section 2, Access policies): a name and requirement rows (topic, requirement, Yes/No requestor option). */
export function PolicyDialog({ policy, open, onClose }: { policy: Policy | null; open: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const savePolicy = useMutation({ mutationFn: (body: PolicyInput) => (policy ? sharingApi.updatePolicy(policy.id, body) : sharingApi.createPolicy(body)) });
  const [name, setName] = useState(policy?.name ?? '');
  const [rows, setRows] = useState<PolicyRequirement[]>(policy?.fields.length ? policy.fields : [emptyRow()]);
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (index: number, row: Partial<PolicyRequirement>) => setRows((current) => current.map((r, i) => (i === index ? { ...r, ...row } : r)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    const body = {
      policyName: name.trim(),
      policyFields: rows.filter((r) => r.topic.trim() || r.requirement.trim()).map((r) => ({ ...r, topic: r.topic.trim(), requirement: r.requirement.trim() })),
    };
    try {
      await savePolicy.mutateAsync(body);
      await queryClient.invalidateQueries({ queryKey: sharingKeys.policies });
      toaster.create({ type: 'success', title: POLICY_SAVED });
      onClose();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.status === 403) toaster.create({ type: 'error', title: NO_PERMISSION });
      else if (!Object.keys(apiError.fieldErrors).length) toaster.create({ type: 'error', title: POLICY_NOT_CREATED });
      setError(apiError);
    } finally {
      setSaving(false);
    }
  }

  return (
    <FormDialog
      open={open}
      title={policy ? 'Edit Access Policy' : 'New Access Policy'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save changes"
      submitting={saving}
    >
      <TextField label="Name" name="policyName" required value={name} onChange={setName} error={error?.fieldError('policyName')} />
      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm">
          Requirements
        </Text>
        <HeadedTable aria-label="Requirements" headers={['Topic', 'Requirement', 'Requestor', null]}>
          {rows.map((row, index) => (
            <Table.Row key={index}>
              <Table.Cell>
                <Input size="sm" aria-label={`Topic ${index + 1}`} value={row.topic} onChange={(e) => set(index, { topic: e.target.value })} />
              </Table.Cell>
              <Table.Cell>
                <Input
                  size="sm"
                  aria-label={`Requirement ${index + 1}`}
                  value={row.requirement}
                  onChange={(e) => set(index, { requirement: e.target.value })}
                />
              </Table.Cell>
              <Table.Cell>
                <NativeSelect.Root size="sm" width="20">
                  <NativeSelect.Field
                    aria-label={`Requestor option ${index + 1}`}
                    value={row.agree}
                    onChange={(e) => set(index, { agree: e.currentTarget.value === 'no' ? 'no' : 'yes' })}
                  >
                    <option value="yes">Yes</option>
                    <option value="no">No</option>
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Table.Cell>
              <Table.Cell>
                <IconButton
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove row ${index + 1}`}
                  onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
                >
                  <DeleteIcon />
                </IconButton>
              </Table.Cell>
            </Table.Row>
          ))}
        </HeadedTable>
        <HStack>
          <Button size="xs" variant="outline" onClick={() => setRows((current) => [...current, emptyRow()])}>
            Add row
          </Button>
        </HStack>
        {error?.fieldError('policyFields') && (
          <Text color="fg.error" fontSize="sm" role="alert">
            {error.fieldError('policyFields')}
          </Text>
        )}
      </Stack>
      <ServerErrorAlert error={error} shownFields={['policyName', 'policyFields']} />
    </FormDialog>
  );
}
