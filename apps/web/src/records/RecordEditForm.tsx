import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Fieldset, HStack, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sharingApi } from '../sharing/sharing-api';

import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { ApiError } from '../api/client';
import { useAuth } from '../auth/AuthProvider';
import { Section } from '../components/Section';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { AutofillPicker } from './AutofillPicker';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { recordsApi } from './records-api';
import { SelectField } from '../components/SelectField';
import { UpgradeHint } from './UpgradeHint';
import { RECORD_NOT_SAVED } from './IndexFilesTab';
import type { AccessCode, AccessOptions, CatalogueRecord, CustomField, NamedId, RecordUpdate, Visibility, VisibilityCode, VisibilityUpdate } from './types';
import { recordKeys, sharingKeys } from '../shared/query-keys';
import { StatusAlert } from '../components/StatusAlert';

export const VISIBILITY_NOT_SAVED = 'Record visibility settings could not be saved. Please contact support.';

const SHOWN_FIELDS = ['name', 'description', 'provenance', 'source', 'recordFields', 'access', 'accessFee', 'currency', 'policy', 'groups'];
const VISIBILITY_CODES: VisibilityCode[] = ['PR', 'EV', 'CU'];
/** Basic organisations publish to everyone only (spec section 2). */
const EVERYONE_ONLY: Array<[string, string]> = [['Everyone', 'EV']];
const policyOption = (label: string, id: string): [string, string] => [label, id];

interface EditValues {
  name: string;
  description: string;
  provenance: string;
  source: string;
  recordFields: CustomField[];
  access: AccessCode;
  accessFee: string;
  currency: string;
  policy: string;
  groups: string[];
  visibility: VisibilityCode;
  organisations: NamedId[];
  users: NamedId[];
}

/** A record made from data shared with its maker alone stays theirs alone (docs/metadata-before-access.md, "Lineage"). */
export const OWNER_ONLY_HINT = 'Made from data shared with you alone: only you see this record, and its visibility and access cannot be widened.';

function initialValues(record: CatalogueRecord, visibility: Visibility | undefined, basic: boolean, ownerOnly: boolean): EditValues {
  return {
    name: record.name ?? '',
    description: record.description ?? '',
    provenance: record.provenance ?? '',
    source: record.source ?? '',
    recordFields: record.record_fields ?? Object.entries(record.RECORD ?? {}).map(([label, value]) => ({ label, value })),
    access: record.access,
    accessFee: record.accessFee === null || record.accessFee === undefined ? '' : String(record.accessFee),
    currency: record.currency ?? 'CAD',
    policy: record.policy ?? '',
    groups: (record.groups ?? []).map((g) => g.id),
    // BASIC clients' records are visible to everyone (spec section 6), except those only their owner may see.
    visibility: ownerOnly ? 'PR' : basic ? 'EV' : (visibility?.visibility_selection ?? record.visibility),
    organisations: visibility?.organisations_with_visibility ?? [],
    users: visibility?.users_with_visibility ?? [],
  };
}

/** Record edit (spec section 2): metadata, custom fields, access and fee, policy, visibility. */
export function RecordEditForm({
  record,
  visibility,
  options,
}: {
  record: CatalogueRecord;
  visibility: Visibility | undefined;
  options: AccessOptions | undefined;
}) {
  const { clientType } = useAuth();
  const basic = clientType === 'BASIC';
  const ownerOnly = !!record.lineage?.restricted;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const updateRecord = useMutation({ mutationFn: (update: RecordUpdate) => recordsApi.update(record.id, update) });
  const updateVisibility = useMutation({ mutationFn: ({ id, body }: { id: string; body: VisibilityUpdate }) => recordsApi.updateVisibility(id, body) });
  const [values, setValues] = useState<EditValues>(() => initialValues(record, visibility, basic, ownerOnly));
  const [error, setError] = useState<ApiError | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof EditValues>(key: K, value: EditValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const accessOptions = options?.access_options ?? record.access_options;
  const currencyOptions = options?.currency_options ?? [[values.currency, values.currency]];
  const visibilityOptions = ownerOnly ? record.visibility_options : basic ? EVERYONE_ONLY : (visibility?.visibility_options ?? record.visibility_options);
  // The organisation's policies and projects (spec section 2, Record edit: policy, groups).
  const policies = useQuery({ queryKey: sharingKeys.policies, queryFn: ({ signal }) => sharingApi.policies(signal) });
  const groups = useQuery({ queryKey: sharingKeys.groupList(), queryFn: ({ signal }) => sharingApi.groups(undefined, signal) });
  const known = policies.data ?? [];
  const policyOptions: [string, string][] = [
    ['No policy', ''],
    ...known.map((p): [string, string] => [p.name, p.id]),
    // A policy of the record the list does not hold (another organisation's): shown by its name.
    ...(record.policy && !known.some((p) => p.id === record.policy) ? [policyOption(record.policy_name ?? record.policy, record.policy)] : []),
  ];
  const initialGroups = (record.groups ?? []).map((g) => g.id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    setFailure(null);
    const update: RecordUpdate = {
      name: values.name.trim(),
      description: values.description,
      provenance: values.provenance,
      source: values.source.trim(),
      recordFields: values.recordFields.filter((f) => f.label.trim()),
      access: values.access,
    };
    // Fee and currency only when a fee is set (spec section 5); clearing a fee removes it.
    if (values.accessFee.trim()) Object.assign(update, { accessFee: values.accessFee.trim(), currency: values.currency });
    else if (record.accessFee !== null && record.accessFee !== undefined) update.accessFee = null;
    if (!basic && values.policy !== (record.policy ?? '')) update.policy = values.policy || null;
    if ([...values.groups].sort().join() !== [...initialGroups].sort().join()) update.groups = values.groups;
    try {
      await updateRecord.mutateAsync(update);
    } catch (caught) {
      const apiError = toApiError(caught);
      if (Object.keys(apiError.fieldErrors).length || apiError.nonFieldErrors.length) setError(apiError);
      else setFailure(RECORD_NOT_SAVED);
      setSaving(false);
      return;
    }
    try {
      if (visibility) {
        const custom = values.visibility === 'CU';
        await updateVisibility.mutateAsync({
          id: visibility.id,
          body: {
            visibility_selection: values.visibility,
            organisations_with_visibility: custom ? values.organisations.map((o) => o.id) : [],
            users_with_visibility: custom ? values.users.map((u) => u.id) : [],
            associated_record: record.id,
          },
        });
      }
    } catch {
      setFailure(VISIBILITY_NOT_SAVED);
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: recordKeys.detail(record.id) });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: recordKeys.detail(record.id) });
    await queryClient.invalidateQueries({ queryKey: recordKeys.visibility(record.id) });
    void queryClient.invalidateQueries({ queryKey: sharingKeys.groups });
    void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
    toaster.create({ title: 'The record was saved.', type: 'success' });
    navigate(`/records/${record.id}`);
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Edit record">
      <Stack gap="5" maxW="3xl">
        <Section title="Metadata">
          <Stack gap="4">
            <TextField label="Name" name="name" required value={values.name} onChange={(v) => set('name', v)} error={error?.fieldError('name')} />
            <TextField
              label="Description"
              name="description"
              multiline
              value={values.description}
              onChange={(v) => set('description', v)}
              error={error?.fieldError('description')}
            />
            <TextField
              label="Provenance"
              name="provenance"
              multiline
              value={values.provenance}
              onChange={(v) => set('provenance', v)}
              error={error?.fieldError('provenance')}
            />
            <TextField
              label="Source URL"
              name="source"
              value={values.source}
              onChange={(v) => set('source', v)}
              error={error?.fieldError('source')}
              placeholder="https://"
            />
            <CustomFieldsEditor fields={values.recordFields} onChange={(v) => set('recordFields', v)} error={error?.fieldError('recordFields')} />
          </Stack>
        </Section>
        <Section title="Access">
          <Stack gap="4">
            <SelectField
              label="Access"
              name="access"
              value={values.access}
              options={accessOptions}
              onChange={(v) => set('access', v === 'OP' ? 'OP' : 'RE')}
              disabled={ownerOnly}
              helperText={ownerOnly ? OWNER_ONLY_HINT : undefined}
              error={error?.fieldError('access')}
            />
            <HStack gap="4" align="start">
              <TextField
                label="Access fee"
                name="accessFee"
                value={values.accessFee}
                onChange={(v) => set('accessFee', v)}
                error={error?.fieldError('accessFee')}
                helperText="A term shown to requestors; nothing is charged."
              />
              <SelectField
                label="Currency"
                name="currency"
                value={values.currency}
                options={currencyOptions}
                onChange={(v) => set('currency', v)}
                disabled={!values.accessFee.trim()}
                error={error?.fieldError('currency')}
              />
            </HStack>
            <UpgradeHint active={basic}>
              <SelectField
                label="Policy"
                name="policy"
                value={values.policy}
                options={policyOptions}
                onChange={(v) => set('policy', v)}
                disabled={basic}
                error={error?.fieldError('policy')}
              />
            </UpgradeHint>
            <Fieldset.Root invalid={!!error?.fieldError('groups')}>
              <Fieldset.Legend fontSize="sm" fontWeight="medium">
                Projects
              </Fieldset.Legend>
              <Stack gap="1">
                {groups.isSuccess && groups.data.groups.length === 0 && (
                  <Text fontSize="sm" color="fg.muted">
                    No existing projects.
                  </Text>
                )}
                {(groups.data?.groups ?? []).map((group) => (
                  <Checkbox.Root
                    key={group.id}
                    colorPalette="teal"
                    checked={values.groups.includes(group.id)}
                    onCheckedChange={(d) => set('groups', d.checked === true ? [...values.groups, group.id] : values.groups.filter((id) => id !== group.id))}
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{group.name}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Stack>
              <Fieldset.ErrorText>{error?.fieldError('groups')}</Fieldset.ErrorText>
            </Fieldset.Root>
          </Stack>
        </Section>
        <Section title="Visibility">
          <Stack gap="4">
            <UpgradeHint active={basic && !ownerOnly}>
              <SelectField
                label="Visibility"
                name="visibility"
                value={values.visibility}
                options={visibilityOptions}
                onChange={(v) => set('visibility', VISIBILITY_CODES.find((code) => code === v) ?? values.visibility)}
                disabled={basic || ownerOnly}
                helperText={ownerOnly ? OWNER_ONLY_HINT : undefined}
              />
            </UpgradeHint>
            {!visibility && !basic && <Text color="fg.muted">The visibility settings could not be loaded.</Text>}
            {values.visibility === 'CU' && !basic && !ownerOnly && (
              <>
                <AutofillPicker
                  label="Organisations"
                  search={recordsApi.organisations}
                  selected={values.organisations}
                  onChange={(v) => set('organisations', v)}
                />
                <AutofillPicker label="Users" search={recordsApi.users} selected={values.users} onChange={(v) => set('users', v)} />
              </>
            )}
          </Stack>
        </Section>
        <ServerErrorAlert error={error} shownFields={SHOWN_FIELDS} />
        {failure && <StatusAlert status="error" text={failure} />}
        <HStack>
          <Button type="submit" colorPalette="teal" loading={saving}>
            Save
          </Button>
          <Button asChild variant="outline">
            <RouterLink to={`/records/${record.id}`}>Cancel</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
