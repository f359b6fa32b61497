import type { ReactNode } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';

/** Stands in for a screen that later work builds. */
export function ScreenPlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap="3" maxW="3xl">
      <Heading as="h1" size="2xl">
        {title}
      </Heading>
      <Text color="fg.muted">This screen is coming soon.</Text>
      {children}
    </Stack>
  );
}
