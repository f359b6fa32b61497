import { Alert, Clipboard, Field, IconButton, Input, InputGroup, Stack } from '@chakra-ui/react';

/** A new signing secret with its copy button: shown this once. */
export function SecretOnce({ secret, label = 'Signing secret' }: { secret: string; label?: string }) {
  return (
    <Stack gap="3" data-testid="webhook-secret">
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>Copy the signing secret now: it is shown only once.</Alert.Title>
      </Alert.Root>
      <Field.Root readOnly>
        <Field.Label>{label}</Field.Label>
        <InputGroup
          endElement={
            <Clipboard.Root value={secret}>
              <Clipboard.Trigger asChild>
                <IconButton variant="ghost" size="xs" me="-2" aria-label={`Copy ${label.toLowerCase()}`}>
                  <Clipboard.Indicator />
                </IconButton>
              </Clipboard.Trigger>
            </Clipboard.Root>
          }
        >
          <Input value={secret} readOnly fontFamily="mono" fontSize="sm" bg="bg.muted" />
        </InputGroup>
      </Field.Root>
    </Stack>
  );
}
