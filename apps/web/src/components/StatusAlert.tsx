import { Alert } from '@chakra-ui/react';

/** A one-line alert: errors are announced at once (role alert), the rest politely (role status). */
export function StatusAlert({ status, text }: { status: 'error' | 'success' | 'info'; text: string }) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Title>{text}</Alert.Title>
    </Alert.Root>
  );
}
