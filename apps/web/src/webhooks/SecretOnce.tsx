import { Alert, Stack } from '@chakra-ui/react';
import { CopyableValue } from '../components/CopyableValue';

/** A new signing secret with its copy button: shown this once. */
export function SecretOnce({ secret, label = 'Signing secret' }: { secret: string; label?: string }) {
  return (
    <Stack gap="3" data-testid="webhook-secret">
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>Copy the signing secret now: it is shown only once.</Alert.Title>
      </Alert.Root>
      <CopyableValue label={label} value={secret} />
    </Stack>
  );
}
