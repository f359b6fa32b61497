import { useEffect, useState, type FormEvent } from 'react';
import { Badge, Box, Button, Flex, HStack, IconButton, Text, VisuallyHidden } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { config } from '../config';
import { CogIcon, LogoMark, MenuIcon } from '../components/icons';
import { SearchInput } from '../components/SearchInput';
import { RecordsScopeToggle } from './records-scope';
import { useSearchQuery, useSubmitSearch } from './search-query';
import { useAttentionCount } from './Sidebar';

export const TOP_BAR_HEIGHT = '3.5rem';

interface TopBarProps {
  bare: boolean;
  sidebarOpen: boolean;
  onToggleSidebar(): void;
}

function SearchBox() {
  const current = useSearchQuery();
  const submitSearch = useSubmitSearch();
  const [query, setQuery] = useState(current);
  useEffect(() => setQuery(current), [current]);

  function submit(event: FormEvent) {
    event.preventDefault();
    submitSearch(query);
  }

  return (
    <Box as="form" role="search" aria-label="Search records" onSubmit={submit} flex="1" maxW="xl" minW="0">
      <SearchInput label="Search records" value={query} onChange={setQuery} size="sm" bg="bg.muted" />
    </Box>
  );
}

export function TopBar({ bare, sidebarOpen, onToggleSidebar }: TopBarProps) {
  const { isSignedIn } = useAuth();
  const attention = useAttentionCount();
  return (
    <Flex
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      h={TOP_BAR_HEIGHT}
      align="center"
      gap={{ base: '2', md: '4' }}
      px={{ base: '2', md: '4' }}
      bg="bg.panel"
      borderBottomWidth="1px"
    >
      {!bare && (
        <Box position="relative">
          <IconButton
            aria-label="Toggle sidebar"
            aria-expanded={sidebarOpen}
            aria-controls="app-sidebar"
            aria-describedby={!sidebarOpen && attention > 0 ? 'menu-attention' : undefined}
            variant="ghost"
            size="sm"
            onClick={onToggleSidebar}
          >
            <MenuIcon />
          </IconButton>
          {/* With the side menu closed (a phone), its Requests count shows on the button that opens it. */}
          {!sidebarOpen && attention > 0 && (
            <Badge
              id="menu-attention"
              position="absolute"
              top="-1"
              right="-1"
              colorPalette="red"
              variant="solid"
              borderRadius="full"
              fontSize="2xs"
              data-testid="menu-attention"
            >
              <span aria-hidden="true">{attention}</span>
              <VisuallyHidden>{`${attention} ${attention === 1 ? 'request needs' : 'requests need'} your attention`}</VisuallyHidden>
            </Badge>
          )}
        </Box>
      )}
      <HStack gap="2" flexShrink={0}>
        <HStack asChild gap="2" _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}>
          {/* The name says where it goes and still holds the visible product name (WCAG 2.5.3). */}
          <RouterLink to="/" aria-label={`${config.productName} home`}>
            <LogoMark boxSize="7" />
            <Text as="span" fontWeight="semibold" fontSize="md" display={{ base: 'none', md: 'inline' }}>
              {config.productName}
            </Text>
          </RouterLink>
        </HStack>
        <Badge colorPalette="teal" variant="subtle" size="sm">
          Beta
        </Badge>
      </HStack>
      <Flex flex="1" justify="center" minW="0">
        {!bare && <SearchBox />}
      </Flex>
      {isSignedIn && !bare && <RecordsScopeToggle label="Records shown" ownLabel="Own" allLabel="All" />}
      {isSignedIn ? (
        <IconButton asChild aria-label="Profile" variant="ghost" size="sm">
          <RouterLink to="/profile" title="Profile">
            <CogIcon />
          </RouterLink>
        </IconButton>
      ) : (
        <Button asChild size="sm" colorPalette="teal" variant="solid">
          <RouterLink to="/login">Login</RouterLink>
        </Button>
      )}
    </Flex>
  );
}
