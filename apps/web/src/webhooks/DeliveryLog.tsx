import { Badge, Button, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from '../components/DataTable';
import { LoadingState } from '../components/LoadingState';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { toApiError } from '../forms/use-form';
import { formatDate } from '../lib/format';
import { toaster } from '../shell/toaster';
import { eventTypeLabel, type WebhookDelivery, webhookKeys, webhooksApi } from './webhooks-api';

const STATUS_TEXT: Record<WebhookDelivery['status'], { text: string; palette: string }> = {
  pending: { text: 'Pending', palette: 'yellow' },
  delivered: { text: 'Delivered', palette: 'green' },
  dead: { text: 'Failed', palette: 'red' },
};

/** The last answer of a delivery in words. */
export function lastAnswer(delivery: WebhookDelivery): string {
  if (delivery.last_error) return delivery.last_error;
  if (delivery.last_status_code !== null) return `Answered ${delivery.last_status_code}`;
  return 'Not sent yet';
}

/** Follows the endpoint's deliveries: every 2 s while one is pending. */
export function useDeliveries(endpointId: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(endpointId),
    queryFn: ({ signal }) => webhooksApi.deliveries(endpointId, signal),
    refetchInterval: (query) => (query.state.data?.results.some((d) => d.status === 'pending') ? 2000 : false),
  });
}

/** An endpoint's delivery log, newest first: status, attempts, last answer, next attempt; a failed one can be sent again. */
export function DeliveryLog({ endpointId, label }: { endpointId: string; label: string }) {
  const queryClient = useQueryClient();
  const deliveries = useDeliveries(endpointId);
  const resend = useMutation({
    mutationFn: (deliveryId: string) => webhooksApi.resend(endpointId, deliveryId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) });
      toaster.create({ title: 'The delivery will be sent again.', type: 'info' });
    },
    onError: (error) => toaster.create({ title: toApiError(error).message, type: 'error' }),
  });

  if (deliveries.isPending) return <LoadingState label="Loading the delivery log…" />;
  if (deliveries.isError) return <ServerErrorAlert error={toApiError(deliveries.error)} title="The delivery log could not be loaded." />;
  if (deliveries.data.results.length === 0)
    return (
      <Text fontSize="sm" color="fg.muted">
        Nothing was sent to this endpoint yet.
      </Text>
    );
  return (
    <DataTable label={label} headers={['Event', 'Status', 'Attempts', 'Last answer', 'When', '']}>
      {deliveries.data.results.map((delivery) => (
        <Table.Row key={delivery.id}>
          <Table.Cell>{eventTypeLabel(delivery.event_type)}</Table.Cell>
          <Table.Cell>
            <Badge colorPalette={STATUS_TEXT[delivery.status].palette}>{STATUS_TEXT[delivery.status].text}</Badge>
          </Table.Cell>
          <Table.Cell>{delivery.attempts}</Table.Cell>
          <Table.Cell>{lastAnswer(delivery)}</Table.Cell>
          <Table.Cell>
            {delivery.status === 'delivered'
              ? `Delivered ${formatDate(delivery.delivered)}`
              : delivery.status === 'pending'
                ? `Next attempt ${formatDate(delivery.next_attempt)}`
                : `Gave up ${formatDate(delivery.last_attempt)}`}
          </Table.Cell>
          <Table.Cell>
            {delivery.status === 'dead' && (
              <Button size="xs" variant="outline" loading={resend.isPending && resend.variables === delivery.id} onClick={() => resend.mutate(delivery.id)}>
                Send again
              </Button>
            )}
          </Table.Cell>
        </Table.Row>
      ))}
    </DataTable>
  );
}
