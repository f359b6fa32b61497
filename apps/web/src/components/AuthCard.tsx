import type { ReactNode } from 'react';
import { Box, Heading, Stack, Text } from '@chakra-ui/react';

/** The centred card of Login, Sign Up and Password Reset. */
export function AuthCard({
  title,
  subtitle,
  width = 'sm',
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  width?: 'sm' | 'md' | 'lg';
  children: ReactNode;
}) {
  return (
    <Box maxW={width} mx="auto" mt={{ base: '2', md: '10' }} p={{ base: '6', md: '8' }} borderWidth="1px" borderRadius="lg" bg="bg.panel" shadow="sm">
      <Stack gap="5">
        <Stack gap="1">
          <Heading as="h1" size="xl">
            {title}
          </Heading>
          {subtitle && (
            <Text color="fg.muted" fontSize="sm">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Box>
  );
}
