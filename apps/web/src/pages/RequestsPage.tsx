import { useCallback } from 'react';
import { Alert, Badge, Box, Button, Grid, Heading, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { truncate } from '../lib/format';
import { day } from '../sharing/request-rules';
import { RequestPanel, StatusBadge } from '../sharing/RequestPanel';
import { sharingApi } from '../sharing/sharing-api';
import { GENERAL_ERROR, NO_INBOUND } from '../sharing/texts';
import type { AccessRequest } from '../sharing/types';
import { recordKeys, sharingKeys } from '../shared/query-keys';

type Tab = 'sent' | 'received';
/** Spec section 9: names are cut at 35 characters in the request list. */
const REQUEST_NAME_LIMIT = 35;

/** The tab asked for in the address (a link, a mail, a reload), if any. */
const tabOf = (value: string | null): Tab | null => (value === 'sent' || value === 'received' ? value : null);

/**
 * Requests (spec section 2): My Requests (sent) first, Received Requests (inbound). Without a tab in
 * the address it opens on the one that has something for this user: Received Requests when any
 * were received, else My Requests.
 */
export function RequestsPage() {
  const [params, setParams] = useSearchParams();
  const asked = tabOf(params.get('tab'));
  // The same list the Received Requests tab shows (one call, shared through react-query).
  const received = useQuery({ queryKey: sharingKeys.received, queryFn: ({ signal }) => sharingApi.received(signal), enabled: !asked });
  const tab: Tab | null = asked ?? (received.isPending ? null : (received.data?.results.length ?? 0) > 0 ? 'received' : 'sent');
  const selected = params.get('id');
  const select = (next: { tab?: Tab; id?: string | null }) => {
    const merged = new URLSearchParams(params);
    if (next.tab) merged.set('tab', next.tab);
    if (next.id === null) merged.delete('id');
    else if (next.id) merged.set('id', next.id);
    setParams(merged, { replace: true });
  };

  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        Requests
      </Heading>
      {tab === null ? (
        <LoadingState label="Loading requests…" />
      ) : (
        <Tabs.Root
          value={tab}
          onValueChange={(d) => select({ tab: d.value === 'received' ? 'received' : 'sent', id: null })}
          colorPalette="teal"
          variant="line"
          lazyMount
          unmountOnExit
        >
          <Tabs.List>
            <Tabs.Trigger value="sent">My Requests</Tabs.Trigger>
            <Tabs.Trigger value="received">Received Requests</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="sent" pt="4">
            <RequestList tab="sent" selected={selected} onSelect={(id) => select({ id })} />
          </Tabs.Content>
          <Tabs.Content value="received" pt="4">
            <RequestList tab="received" selected={selected} onSelect={(id) => select({ id })} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}

function RequestList({ tab, selected, onSelect }: { tab: Tab; selected: string | null; onSelect(id: string | null): void }) {
  const { clientType, token } = useAuth();
  const queryClient = useQueryClient();
  // The same answer as the side menu's count: which requests wait for the user, and why.
  const attention = useQuery({ queryKey: sharingKeys.attention(token), queryFn: ({ signal }) => sharingApi.attention(signal) });
  const waiting = new Map((attention.data?.requests ?? []).map((a) => [a.request, a]));
  const key = tab === 'sent' ? sharingKeys.sent : sharingKeys.received;
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => (tab === 'sent' ? sharingApi.sent(signal) : sharingApi.received(signal)) });
  const requests = list.data?.results ?? [];
  const current = requests.find((r) => r.id === selected) ?? null;
  // A request asked for by id (a mail link) that the list does not hold is loaded on its own.
  const single = useQuery({
    queryKey: sharingKeys.request(selected ?? ''),
    queryFn: ({ signal }) => sharingApi.request(selected!, signal),
    enabled: !!selected && list.isSuccess && !current,
    retry: false,
  });
  const shown = current ?? single.data ?? null;

  const changed = useCallback(
    (updated: AccessRequest) => {
      queryClient.setQueryData(key, (old: typeof list.data) => (old ? { ...old, results: old.results.map((r) => (r.id === updated.id ? updated : r)) } : old));
      queryClient.setQueryData(sharingKeys.request(updated.id), updated);
      // Records show their request status; let them read it again.
      void queryClient.invalidateQueries({ queryKey: recordKeys.detail(updated.record) });
      void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
      // A decision or a withdrawal changes what waits for the user (the side menu's count).
      void queryClient.invalidateQueries({ queryKey: sharingKeys.attentionAll });
    },
    [queryClient, key],
  );
  const closed = () => {
    onSelect(null);
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: recordKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: sharingKeys.attentionAll });
  };

  if (list.isPending) return <LoadingState label="Loading requests…" />;
  if (list.isError)
    return (
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Title>{GENERAL_ERROR}</Alert.Title>
      </Alert.Root>
    );
  if (requests.length === 0 && !shown)
    return (
      <Text color="fg.muted" data-testid={`requests-empty-${tab}`}>
        {tab === 'received' ? NO_INBOUND : 'You have not requested any data yet. Find a record in the Workspace and press Request.'}
      </Text>
    );

  return (
    <Grid templateColumns={{ base: '1fr', lg: 'minmax(260px, 1fr) 2fr' }} gap="6" alignItems="start">
      <Stack as="ul" gap="2" listStyleType="none" aria-label={tab === 'sent' ? 'My Requests' : 'Received Requests'}>
        {requests.map((r) => (
          <li key={r.id}>
            <Button
              variant={r.id === shown?.id ? 'subtle' : 'outline'}
              colorPalette={r.id === shown?.id ? 'teal' : 'gray'}
              w="full"
              h="auto"
              py="2"
              justifyContent="start"
              textAlign="start"
              aria-current={r.id === shown?.id ? 'true' : undefined}
              onClick={() => onSelect(r.id)}
              data-testid="request-item"
            >
              <Stack gap="0.5" w="full">
                <HStack justify="space-between" w="full">
                  <Text fontWeight="semibold" truncate title={r.record_name}>
                    {truncate(r.record_name || r.record, REQUEST_NAME_LIMIT)}
                  </Text>
                  <HStack gap="1">
                    <WaitingBadge waiting={waiting.get(r.id)} tab={tab} />
                    <StatusBadge request={r} />
                  </HStack>
                </HStack>
                <Text fontSize="xs" color="fg.muted" fontWeight="normal">
                  {tab === 'received' ? `${r.requestor}${r.requestor_org_name ? ` · ${r.requestor_org_name}` : ''}` : `to ${r.data_admin || 'the owner'}`} ·{' '}
                  {day(r.created)}
                </Text>
              </Stack>
            </Button>
          </li>
        ))}
      </Stack>
      <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.panel" minH="40">
        {shown ? (
          <RequestPanel key={`${shown.id}-${shown.status}`} request={shown} basic={clientType === 'BASIC'} onChanged={changed} onClosed={closed} />
        ) : single.isPending && selected ? (
          <LoadingState label="Loading the request…" />
        ) : (
          <Text color="fg.muted">Choose a request to see it and its messages.</Text>
        )}
      </Box>
    </Grid>
  );
}

/** "2 new messages" or "To decide" on a request that waits for the user. */
function WaitingBadge({ waiting, tab }: { waiting?: { pending: boolean; unread_messages: number }; tab: Tab }) {
  if (!waiting) return null;
  const text =
    waiting.unread_messages > 0
      ? `${waiting.unread_messages} new message${waiting.unread_messages === 1 ? '' : 's'}`
      : waiting.pending && tab === 'received'
        ? 'To decide'
        : null;
  if (!text) return null;
  return (
    <Badge colorPalette="red" variant="subtle" data-testid="request-waiting">
      {text}
    </Badge>
  );
}
