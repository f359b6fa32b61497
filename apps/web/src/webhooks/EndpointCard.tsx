import { Badge, Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { toApiError } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { DeliveryLog, lastAnswer, useDeliveries } from './DeliveryLog';
import { SecretOnce } from './SecretOnce';
import { eventTypeLabel, type WebhookEndpoint, webhookKeys, webhooksApi } from './webhooks-api';

/** What became of the test event sent last, from the delivery log. */
function TestResult({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const deliveries = useDeliveries(endpointId);
  const delivery = deliveries.data?.results.find((d) => d.id === deliveryId);
  const text = !delivery
    ? 'Test event sent: waiting for the endpoint…'
    : delivery.status === 'delivered'
      ? `Test event delivered: the endpoint answered ${delivery.last_status_code}.`
      : delivery.status === 'dead'
        ? `Test event failed: ${lastAnswer(delivery)}`
        : delivery.attempts > 0 && delivery.last_attempt && (delivery.last_error || delivery.last_status_code !== null)
          ? `Test event not delivered yet: ${lastAnswer(delivery)} It will be tried again.`
          : 'Test event sent: waiting for the endpoint…';
  const palette = delivery?.status === 'delivered' ? 'green.fg' : delivery?.status === 'dead' || delivery?.last_error ? 'red.fg' : 'fg.muted';
  return (
    <Text role="status" fontSize="sm" color={palette} data-testid="webhook-test-result">
      {text}
    </Text>
  );
}

/** One endpoint: its settings, actions and delivery log. `secret`: a secret just made, shown this once. */
export function EndpointCard({ endpoint, secret }: { endpoint: WebhookEndpoint; secret?: string }) {
  const queryClient = useQueryClient();
  const [testDelivery, setTestDelivery] = useState<string>();
  const [rotated, setRotated] = useState<string>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const failed = (error: unknown) => toaster.create({ title: toApiError(error).message, type: 'error' });
  const sendTest = useMutation({
    mutationFn: () => webhooksApi.sendTest(endpoint.id),
    onSuccess: async (delivery) => {
      setTestDelivery(delivery.id);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
    },
    onError: failed,
  });
  const toggle = useMutation({ mutationFn: () => webhooksApi.update(endpoint.id, { active: !endpoint.active }), onSuccess: refresh, onError: failed });
  const rotate = useMutation({ mutationFn: () => webhooksApi.rotateSecret(endpoint.id), onSuccess: (answer) => setRotated(answer.secret), onError: failed });
  const remove = useMutation({
    mutationFn: () => webhooksApi.remove(endpoint.id),
    onSuccess: async () => {
      setConfirmRemove(false);
      await refresh();
      toaster.create({ title: 'The webhook endpoint was removed.', type: 'success' });
    },
    onError: failed,
  });
  const shownSecret = rotated ?? secret;

  return (
    <Box as="article" aria-label={`Webhook endpoint ${endpoint.url}`} borderWidth="1px" borderRadius="md" p="4">
      <Stack gap="3">
        <HStack justify="space-between" align="start" wrap="wrap" gap="2">
          <Stack gap="1" minW="0">
            <Heading as="h3" size="sm" wordBreak="break-all">
              {endpoint.url}
            </Heading>
            {endpoint.description && (
              <Text fontSize="sm" color="fg.muted">
                {endpoint.description}
              </Text>
            )}
          </Stack>
          <Badge colorPalette={endpoint.active ? 'green' : 'gray'}>{endpoint.active ? 'Active' : 'Paused'}</Badge>
        </HStack>
        <Text fontSize="sm">Events: {endpoint.event_types.map(eventTypeLabel).join(', ')}</Text>
        {shownSecret && <SecretOnce secret={shownSecret} />}
        <HStack gap="2" wrap="wrap">
          <Button size="sm" colorPalette="teal" loading={sendTest.isPending} disabled={!endpoint.active} onClick={() => sendTest.mutate()}>
            Send test event
          </Button>
          <Button size="sm" variant="outline" loading={toggle.isPending} onClick={() => toggle.mutate()}>
            {endpoint.active ? 'Pause' : 'Resume'}
          </Button>
          <Button size="sm" variant="outline" loading={rotate.isPending} onClick={() => rotate.mutate()}>
            New secret
          </Button>
          <Button size="sm" variant="outline" colorPalette="red" onClick={() => setConfirmRemove(true)}>
            Remove
          </Button>
        </HStack>
        {testDelivery && <TestResult endpointId={endpoint.id} deliveryId={testDelivery} />}
        <Heading as="h4" size="xs">
          Delivery log
        </Heading>
        <DeliveryLog endpointId={endpoint.id} label={`Deliveries to ${endpoint.url}`} />
      </Stack>
      <ConfirmDialog
        open={confirmRemove}
        title="Remove this webhook endpoint?"
        message={`Nothing more is sent to ${endpoint.url}, and its delivery log is deleted.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmRemove(false)}
      />
    </Box>
  );
}
