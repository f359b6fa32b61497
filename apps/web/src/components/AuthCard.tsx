import type { ReactNode } from 'react';
import { Box, Button, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';

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

/** The submit button and a Cancel button going to `cancelTo`, side by side, of an auth card's form. */
export function AuthActions({ submitLabel, submitting, cancelTo }: { submitLabel: string; submitting: boolean; cancelTo: string }) {
  const navigate = useNavigate();
  return (
    <HStack gap="3">
      <Button type="submit" colorPalette="teal" loading={submitting} flex="1">
        {submitLabel}
      </Button>
      <Button variant="outline" flex="1" onClick={() => navigate(cancelTo)}>
        Cancel
      </Button>
    </HStack>
  );
}

/** A line under an auth card's form leading to another auth screen, e.g. "No account yet? Sign Up". */
export function AuthLink({ prompt, to, children }: { prompt: string; to: string; children: ReactNode }) {
  return (
    <Text fontSize="sm" color="fg.muted">
      {prompt}{' '}
      <Link asChild colorPalette="teal" variant="underline">
        <RouterLink to={to}>{children}</RouterLink>
      </Link>
    </Text>
  );
}
