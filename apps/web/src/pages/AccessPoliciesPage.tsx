import { useState } from 'react';
import { Alert, Badge, Button, Card, Heading, HStack, Link, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LoadingState } from '../components/LoadingState';
import { toaster } from '../shell/toaster';
import { PolicyDialog } from '../sharing/PolicyDialog';
import { day } from '../sharing/request-rules';
import { sharingApi } from '../sharing/sharing-api';
import { useConfirmedDelete } from '../sharing/use-confirmed-delete';
import { NO_PERMISSION, POLICY_DELETE_FAILED, POLICY_DELETED, POLICY_NOT_RETRIEVED } from '../sharing/texts';
import type { Policy } from '../sharing/types';
import { sharingKeys } from '../shared/query-keys';

export const DELETE_POLICY_QUESTION = 'Are you sure you want to delete this policy?';

/** Manage access policies (spec section 2, Access policies): the organisation's policies; Data Admins change them. */
export function AccessPoliciesPage() {
  const { isSignedIn } = useAuth();
  const policies = useQuery({ queryKey: sharingKeys.policies, queryFn: ({ signal }) => sharingApi.policies(signal), enabled: isSignedIn });
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const { setDeleting, deleteError, dialog } = useConfirmedDelete<Policy>({
    remove: sharingApi.deletePolicy,
    listKey: sharingKeys.policies,
    deletedText: POLICY_DELETED,
    failedText: POLICY_DELETE_FAILED,
  });

  const list = policies.data ?? [];
  return (
    <Stack gap="5" maxW="5xl">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Stack gap="1">
          <Heading as="h1" size="2xl">
            Access Policies
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            Terms a requestor answers yes or no before asking for your organisation&apos;s data. Attach one to a record in Record edit.{' '}
            <Link asChild colorPalette="teal">
              <RouterLink to="/groups">Projects</RouterLink>
            </Link>
          </Text>
        </Stack>
        {isSignedIn && (
          <Button colorPalette="teal" onClick={() => setEditing('new')}>
            New Policy
          </Button>
        )}
      </HStack>
      {!isSignedIn && <Text color="fg.muted">Log in to manage your organisation&apos;s access policies.</Text>}
      {policies.isPending && isSignedIn && <LoadingState label="Loading access policies…" />}
      {policies.isError && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{POLICY_NOT_RETRIEVED}</Alert.Title>
        </Alert.Root>
      )}
      {policies.isSuccess && list.length === 0 && (
        <Text color="fg.muted" data-testid="policies-empty">
          Your organisation has no access policies yet.
        </Text>
      )}
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        {list.map((policy) => (
          <Card.Root key={policy.id} variant="outline" size="sm" as="article" aria-label={policy.name} data-testid="policy-card">
            <Card.Header>
              <HStack justify="space-between" align="start">
                <Stack gap="0">
                  <Card.Title as="h2" fontSize="md">
                    {policy.name}
                  </Card.Title>
                  <Text fontSize="xs" color="fg.muted">
                    Owner {policy.owner || 'N/A'} · created {day(policy.created)} · changed {day(policy.changed)}
                  </Text>
                </Stack>
                <Badge variant="subtle">{policy.fields.length === 1 ? '1 requirement' : `${policy.fields.length} requirements`}</Badge>
              </HStack>
            </Card.Header>
            <Card.Body py="2">
              <Table.Root size="sm" aria-label={`Requirements of ${policy.name}`}>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Topic</Table.ColumnHeader>
                    <Table.ColumnHeader>Requirement</Table.ColumnHeader>
                    <Table.ColumnHeader>Requestor</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {policy.fields.map((row, i) => (
                    <Table.Row key={i}>
                      <Table.Cell>{row.topic}</Table.Cell>
                      <Table.Cell>{row.requirement}</Table.Cell>
                      <Table.Cell>{row.agree === 'yes' ? 'Yes' : 'No'}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Card.Body>
            <Card.Footer gap="2" justifyContent="end">
              <Button
                size="sm"
                variant="outline"
                colorPalette="red"
                onClick={() => (policy.can_edit ? setDeleting(policy) : toaster.create({ type: 'error', title: NO_PERMISSION }))}
              >
                Delete
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => (policy.can_edit ? setEditing(policy) : toaster.create({ type: 'error', title: NO_PERMISSION }))}
              >
                Edit
              </Button>
            </Card.Footer>
          </Card.Root>
        ))}
      </SimpleGrid>
      {editing && (
        <PolicyDialog key={editing === 'new' ? 'new' : editing.id} policy={editing === 'new' ? null : editing} open onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog {...dialog} title="Delete policy" message={DELETE_POLICY_QUESTION}>
        {deleteError && <Text color="fg.error">{deleteError}</Text>}
      </ConfirmDialog>
    </Stack>
  );
}
