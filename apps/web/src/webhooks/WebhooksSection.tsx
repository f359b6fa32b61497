import { Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UserAccount } from '../api/types';
import { LoadingState } from '../components/LoadingState';
import { Section } from '../components/Section';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { toApiError } from '../forms/use-form';
import { AddEndpointForm } from './AddEndpointForm';
import { EndpointCard } from './EndpointCard';
import { webhookKeys, webhooksApi } from './webhooks-api';

/** The Data Admin group (identity/constants.ts GROUPS). */
const DATA_ADMIN = 2;

/**
 * Webhooks on the Organisation tab, for the organisation's Data Admins: endpoints that hear of the
 * organisation's own events as signed HTTP POSTs (docs/webhooks.md), each with its delivery log.
 */
export function WebhooksSection({ user }: { user: UserAccount }) {
  const isDataAdmin = user.groups?.includes(DATA_ADMIN) ?? false;
  const endpoints = useQuery({ queryKey: webhookKeys.all, queryFn: ({ signal }) => webhooksApi.list(signal), enabled: isDataAdmin });
  // The secret of the endpoint just added: the only time it is known here.
  const [fresh, setFresh] = useState<{ id: string; secret: string }>();
  if (!isDataAdmin) return null;

  return (
    <Section
      title="Webhooks"
      description="Your systems hear of your organisation's records, requests and jobs as signed HTTP POSTs, without running a Kafka consumer."
    >
      <Stack gap="6">
        {endpoints.isPending && <LoadingState label="Loading the webhook endpoints…" />}
        {endpoints.isError && <ServerErrorAlert error={toApiError(endpoints.error)} title="The webhook endpoints could not be loaded." />}
        {endpoints.isSuccess && endpoints.data.length === 0 && <Text color="fg.muted">No webhook endpoints yet. Add one below.</Text>}
        {endpoints.data?.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} secret={fresh?.id === endpoint.id ? fresh.secret : undefined} />
        ))}
        <AddEndpointForm onCreated={(id, secret) => setFresh({ id, secret })} />
      </Stack>
    </Section>
  );
}
