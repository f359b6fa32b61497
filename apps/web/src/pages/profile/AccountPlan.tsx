import { useState } from 'react';
import { Badge, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { ApiError } from '../../api/client';
import type { Account, ClientType } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ServerErrorAlert } from '../../forms/ServerErrorAlert';
import { toApiError } from '../../forms/use-form';
import { identityApi } from '../../identity/identity-api';
import { toaster } from '../../shell/toaster';

export const PLAN_OPTIONS: Array<[string, ClientType]> = [
  ['BASIC', 'BASIC'],
  ['STANDARD', 'STANDARD'],
];

/** What each plan means for who sees the account's records (spec section 2: BASIC forces Everyone). */
export const PLAN_HELP: Record<ClientType, string> = {
  BASIC:
    'BASIC: every record this account indexes is visible to everyone, visitors who are not signed in included. It cannot keep records private or assign access policies.',
  STANDARD: 'STANDARD: records this account indexes start Private, and it chooses who sees them and can assign access policies.',
};

/** A plan the caller may give: a BASIC caller gives BASIC only (identity refuses more). */
export const plansFor = (own: ClientType | undefined): Array<[string, ClientType]> =>
  own === 'BASIC' ? PLAN_OPTIONS.filter(([, code]) => code === 'BASIC') : PLAN_OPTIONS;

/** The plan of a new account, with what it means, before the account is made. */
export function PlanField({
  value,
  onChange,
  own,
  error,
}: {
  value: ClientType;
  onChange(plan: ClientType): void;
  own: ClientType | undefined;
  error?: string;
}) {
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>Plan</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field name="client_type" value={value} onChange={(event) => onChange(event.currentTarget.value === 'STANDARD' ? 'STANDARD' : 'BASIC')}>
          {plansFor(own).map(([label, code]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.HelperText data-testid="plan-help">{PLAN_HELP[value]}</Field.HelperText>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

interface PlanCellProps {
  account: Account;
  /** account.change_userprofile, and not the caller's own account. */
  editable: boolean;
  own: ClientType | undefined;
  onSaved(account: Account): void;
}

/**
 * An account's plan in the Accounts table: a select for whoever may change accounts. Moving an
 * account to BASIC is confirmed first, since its records become visible to everyone.
 */
export function PlanCell({ account, editable, own, onSaved }: PlanCellProps) {
  const current: ClientType = account.client_type === 'STANDARD' ? 'STANDARD' : 'BASIC';
  const [asking, setAsking] = useState<ClientType | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const setPlan = useMutation({ mutationFn: (plan: ClientType) => identityApi.setAccountPlan(account.id, plan) });

  if (!editable) {
    return (
      <Badge size="sm" colorPalette={current === 'BASIC' ? 'orange' : 'teal'}>
        {account.client_type ?? '—'}
      </Badge>
    );
  }

  const save = async (plan: ClientType) => {
    setError(null);
    try {
      const saved = await setPlan.mutateAsync(plan);
      onSaved({ ...account, ...saved, client_type: saved?.client_type ?? plan });
      setAsking(null);
      toaster.create({
        title: `${account.username} is now on the ${plan} plan.`,
        description: 'The plan applies from their next sign-in.',
        type: 'success',
      });
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  // A higher plan than the caller's own cannot be given; an account already on it keeps showing it.
  const options = plansFor(own).some(([, code]) => code === current) ? plansFor(own) : PLAN_OPTIONS;
  return (
    <Stack gap="1" minW="8rem">
      <NativeSelect.Root size="xs" disabled={setPlan.isPending}>
        <NativeSelect.Field
          aria-label={`Plan of ${account.username}`}
          value={current}
          onChange={(event) => {
            const plan: ClientType = event.currentTarget.value === 'STANDARD' ? 'STANDARD' : 'BASIC';
            if (plan === 'BASIC') setAsking(plan);
            else void save(plan);
          }}
        >
          {options.map(([label, code]) => (
            <option key={code} value={code} disabled={code !== current && !plansFor(own).some(([, allowed]) => allowed === code)}>
              {label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {error && !asking && (
        <Text role="alert" fontSize="xs" color="fg.error">
          {error.fieldError('client_type') ?? error.message}
        </Text>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`Move ${account.username} to the BASIC plan`}
        message={`Every record ${account.username} indexes from now on will be visible to everyone, visitors who are not signed in included. They will no longer be able to choose who sees their records or to assign access policies.`}
        confirmLabel="Move to BASIC"
        confirmPalette="orange"
        busy={setPlan.isPending}
        onConfirm={() => void save('BASIC')}
        onCancel={() => {
          setAsking(null);
          setError(null);
        }}
      >
        <ServerErrorAlert error={error} />
      </ConfirmDialog>
    </Stack>
  );
}
