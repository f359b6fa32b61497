import { HStack, Spinner, Text } from '@chakra-ui/react';

/** A spinner with words, announced politely to screen readers. */
export function LoadingState({ label }: { label: string }) {
  return (
    <HStack role="status" aria-live="polite" gap="3" py="6" color="fg.muted">
      <Spinner size="sm" color="teal.solid" />
      <Text>{label}</Text>
    </HStack>
  );
}
