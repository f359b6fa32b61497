import { useState } from 'react';
import { Alert, Badge, Button, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { toApiError } from '../forms/use-form';
import { formatDate } from '../lib/format';
import { toaster } from '../shell/toaster';
import { recordsApi } from './records-api';
import type { CatalogueRecord } from './types';
import { recordKeys } from '../shared/query-keys';

type Terms = NonNullable<CatalogueRecord['lineage']>['sources'][number]['terms'];
type Derivative = CatalogueRecord['derivatives'][number];

/** How each kind of terms reads on screen (docs/metadata-before-access.md, "Lineage"). */
export const TERMS_LABELS: Record<Terms, string> = {
  own: 'Own data',
  public: 'Open to everyone',
  open: 'Open to its maker only',
  grant: 'Approved request',
};

export const REVOKE_DERIVATIVE_QUESTION =
  'Are you sure you want to revoke this derivative? Its maker will no longer be able to download it, nor anything made from it since. This cannot be undone.';

/** Why the record's data can no longer be downloaded, for its maker (download_url is then null). */
export function DownloadBlockedNotice({ record }: { record: CatalogueRecord }) {
  const reason = record.lineage?.download_blocked;
  if (!reason) return null;
  return (
    <Alert.Root status="warning" data-testid="download-blocked">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Download is no longer possible</Alert.Title>
        <Alert.Description>{reason}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The records this one was made from, with their terms and whether each still holds (its maker's view). */
export function SourcesPanel({ lineage }: { lineage: NonNullable<CatalogueRecord['lineage']> }) {
  return (
    <Stack gap="2" as="section" aria-label="Made from">
      <Heading as="h3" size="sm">
        Made from
      </Heading>
      {lineage.restricted && (
        <Text fontSize="sm" color="fg.muted" data-testid="owner-only-note">
          Made from data shared with you alone: only you see and download this record, and its visibility and access cannot be widened.
        </Text>
      )}
      <DataTable label="Sources of this record" headers={['Source', 'Terms', 'Standing']}>
        {lineage.sources.map((source) => (
          <Table.Row key={`${source.id}-${source.terms}-${source.via ?? ''}`} data-testid="lineage-source">
            <Table.Cell>
              {source.name}
              {source.via && (
                <Text as="span" fontSize="xs" color="fg.muted">
                  {' '}
                  (through the record it was made from)
                </Text>
              )}
            </Table.Cell>
            <Table.Cell>{TERMS_LABELS[source.terms]}</Table.Cell>
            <Table.Cell>
              {source.holds ? (
                <Badge colorPalette="green">Holds</Badge>
              ) : (
                <Text color="fg.error">{source.revoked ? 'Revoked by its owner' : 'No longer holds'}</Text>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </DataTable>
    </Stack>
  );
}

/**
 * The records made from this one, for its owner and its organisation's Data Admins, each with a
 * Revoke button: revoking asks first, then stops the derivative's download for good.
 */
export function DerivativesPanel({ record }: { record: CatalogueRecord }) {
  const queryClient = useQueryClient();
  const revokeDerivative = useMutation({ mutationFn: (derivedId: string) => recordsApi.revokeDerivative(record.id, derivedId) });
  const [confirming, setConfirming] = useState<Derivative | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const revoke = async () => {
    if (!confirming) return;
    setBusy(true);
    setFailure(null);
    try {
      await revokeDerivative.mutateAsync(confirming.id);
      const message = `“${confirming.name}” was revoked: ${confirming.user} can no longer download it.`;
      setOutcome(message);
      toaster.create({ title: message, type: 'success' });
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: recordKeys.detail(record.id) });
    } catch (error) {
      setFailure(toApiError(error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="2" as="section" aria-label="Derivatives">
      <Heading as="h3" size="sm">
        Derivatives
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        Records others made from this one (merges), with the terms they were made under. Revoking one stops its download for good.
      </Text>
      {outcome && (
        <Alert.Root status="success" role="status" data-testid="derivative-revoked">
          <Alert.Indicator />
          <Alert.Title>{outcome}</Alert.Title>
        </Alert.Root>
      )}
      {record.derivatives.length > 0 && (
        <DataTable label="Derivatives of this record" headers={['Record', 'Made by', 'Made on', 'Terms', 'Status']}>
          {record.derivatives.map((derivative) => (
            <Table.Row key={derivative.id} data-testid="derivative">
              {/* A name, not a link: a derivative of shared data is its maker's alone to open. */}
              <Table.Cell>{derivative.name}</Table.Cell>
              <Table.Cell>{derivative.user || 'N/A'}</Table.Cell>
              <Table.Cell>{formatDate(derivative.date_created)}</Table.Cell>
              <Table.Cell>{TERMS_LABELS[derivative.terms]}</Table.Cell>
              <Table.Cell>
                {derivative.revoked ? (
                  <Text data-testid="derivative-status">Revoked {formatDate(derivative.date_revoked)}</Text>
                ) : (
                  <Button size="xs" variant="outline" colorPalette="red" onClick={() => setConfirming(derivative)} aria-label={`Revoke ${derivative.name}`}>
                    Revoke
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Revoke “${confirming?.name ?? ''}”`}
        message={REVOKE_DERIVATIVE_QUESTION}
        confirmLabel="Revoke"
        busy={busy}
        onConfirm={revoke}
        onCancel={() => {
          setConfirming(null);
          setFailure(null);
        }}
      >
        {failure && <Text color="fg.error">{failure}</Text>}
      </ConfirmDialog>
    </Stack>
  );
}
