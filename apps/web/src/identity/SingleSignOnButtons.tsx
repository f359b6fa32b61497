import { Button, HStack, Separator, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { ssoApi } from './sso-api';

export const ssoKeys = {
  providers: ['identity', 'sso', 'providers'] as const,
  settings: ['identity', 'sso', 'settings'] as const,
};

/**
 * "Sign in with <provider>" for each organisation that configured single sign-on. Each is a link:
 * the browser goes to the provider and comes back to #/login/sso. Nothing shows while the list
 * loads, when there is none, or when it cannot be read (the password login still works).
 */
export function SingleSignOnButtons() {
  const providers = useQuery({ queryKey: ssoKeys.providers, queryFn: ({ signal }) => ssoApi.providers(signal), staleTime: 60_000 });
  if (!providers.data?.length) return null;
  return (
    <Stack gap="3" as="nav" aria-label="Single sign-on">
      <HStack gap="3">
        <Separator flex="1" />
        <Text fontSize="sm" color="fg.muted" flexShrink="0">
          or sign in with your organisation
        </Text>
        <Separator flex="1" />
      </HStack>
      {providers.data.map((provider) => (
        <Button key={provider.id} asChild variant="outline" colorPalette="teal">
          <a href={ssoApi.startUrl(provider.id)}>Sign in with {provider.name}</a>
        </Button>
      ))}
    </Stack>
  );
}
