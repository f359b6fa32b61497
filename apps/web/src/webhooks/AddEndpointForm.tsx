import { Button, Fieldset, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckboxField } from '../components/CheckboxField';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { requiredMessage, useForm } from '../forms/use-form';
import { toaster } from '../shell/toaster';
import { WEBHOOK_EVENT_TYPES, webhookKeys, webhooksApi } from './webhooks-api';

/** Registers an endpoint: its URL, what it is for, the events it hears of. Hands the new secret up. */
export function AddEndpointForm({ onCreated }: { onCreated(endpointId: string, secret: string): void }) {
  const queryClient = useQueryClient();
  const [types, setTypes] = useState<string[]>(['record.created']);
  const [typesError, setTypesError] = useState<string>();
  const create = useMutation({ mutationFn: webhooksApi.create });
  const form = useForm({ url: '', description: '' }, (values) => ({ url: requiredMessage(values.url, 'URL is required.') }));
  const submit = form.handleSubmit(async (values) => {
    if (types.length === 0) {
      setTypesError('Choose at least one event type.');
      return;
    }
    const created = await create.mutateAsync({ url: values.url.trim(), description: values.description.trim(), event_types: types });
    await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    form.reset();
    setTypes(['record.created']);
    onCreated(created.id, created.secret);
    toaster.create({ title: 'The webhook endpoint was added.', type: 'success' });
  });
  const toggle = (type: string, on: boolean) => {
    setTypesError(undefined);
    setTypes((current) => (on ? [...current, type] : current.filter((t) => t !== type)));
  };
  const serverTypesError = form.serverError?.fieldError('event_types');

  return (
    <form ref={form.formRef} noValidate onSubmit={submit} aria-label="Add a webhook endpoint">
      <Stack gap="4" maxW="xl">
        <Heading as="h3" size="sm">
          Add an endpoint
        </Heading>
        <ServerErrorAlert error={form.serverError} shownFields={['url', 'description', 'event_types']} />
        <TextField
          label="Endpoint URL"
          type="text"
          required
          placeholder="https://hooks.example.org/catalogue"
          helperText="Events are POSTed here, signed with the endpoint's secret."
          {...form.field('url')}
        />
        <TextField label="Endpoint description" helperText="What the endpoint is for (optional)." {...form.field('description')} />
        <Fieldset.Root invalid={!!(typesError ?? serverTypesError)}>
          <Fieldset.Legend>Events to send</Fieldset.Legend>
          <Stack gap="2" mt="2">
            {WEBHOOK_EVENT_TYPES.map((event) => (
              <CheckboxField key={event.type} label={event.label} checked={types.includes(event.type)} onChange={(on) => toggle(event.type, on)} />
            ))}
          </Stack>
          {(typesError ?? serverTypesError) && <Fieldset.ErrorText>{typesError ?? serverTypesError}</Fieldset.ErrorText>}
        </Fieldset.Root>
        <Text fontSize="sm" color="fg.muted">
          Only events about your organisation&apos;s own records, requests and jobs are sent.
        </Text>
        <Button type="submit" colorPalette="teal" alignSelf="start" loading={form.submitting}>
          Add endpoint
        </Button>
      </Stack>
    </form>
  );
}
