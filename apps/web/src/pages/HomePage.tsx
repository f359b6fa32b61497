import { useState, type FormEvent } from 'react';
import { Button, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { LogoMark } from '../components/icons';
import { SearchInput } from '../components/SearchInput';
import { useSubmitSearch } from '../shell/search-query';

export function HomePage() {
  const { isSignedIn } = useAuth();
  const submitSearch = useSubmitSearch();
  const [query, setQuery] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    submitSearch(query);
  }

  return (
    <Stack align="center" justify="center" gap="6" minH="60vh" textAlign="center" px="2">
      <LogoMark boxSize="14" />
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} fontWeight="semibold">
        Find, share and request data
      </Heading>
      <form role="search" aria-label="Search for data" onSubmit={submit} style={{ width: '100%', maxWidth: '40rem' }}>
        <HStack gap="2">
          <SearchInput label="Search for data" value={query} onChange={setQuery} size="lg" bg="bg.panel" flex="1" />
          <Button type="submit" size="lg" colorPalette="teal" borderRadius="full">
            Search
          </Button>
        </HStack>
      </form>
      {!isSignedIn && (
        <Link asChild colorPalette="teal" fontWeight="medium">
          <RouterLink to="/login">Sign-in to index data and more!</RouterLink>
        </Link>
      )}
      <Text color="fg.muted" fontSize="sm" maxW="lg">
        Index datasets as metadata records, search and browse them, and control who may see them and on what terms.
      </Text>
    </Stack>
  );
}
