import { useEffect, useState } from 'react';
import { Box, chakra, Flex } from '@chakra-ui/react';
import { Outlet, useLocation } from 'react-router-dom';
import { config } from '../config';
import { useCrumbs, useIsBarePage } from './route-handle';
import { Breadcrumbs } from './Breadcrumbs';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { AppToaster } from './toaster';
import { TOP_BAR_HEIGHT, TopBar } from './TopBar';
import { useMediaQuery } from './use-media-query';

/** The frame around every screen: top bar, side menu, breadcrumbs, the screen, footer. */
export function Shell() {
  const bare = useIsBarePage();
  const crumbs = useCrumbs();
  const { pathname } = useLocation();
  const wide = useMediaQuery(`(min-width: ${config.narrowBreakpointPx}px)`);
  const [sidebarOpen, setSidebarOpen] = useState(wide);

  // Open on wide screens, closed on narrow ones, whenever the width crosses the breakpoint.
  useEffect(() => setSidebarOpen(wide), [wide]);
  // On narrow screens the menu covers the page: close it once the user has picked a screen.
  useEffect(() => {
    if (!wide) setSidebarOpen(false);
  }, [pathname, wide]);

  const title = crumbs.at(-1)?.label;
  useEffect(() => {
    document.title = title && title !== 'Home' ? `${title} · ${config.productName}` : config.productName;
  }, [title]);

  const showSidebar = !bare && sidebarOpen;
  const overlay = showSidebar && !wide;

  return (
    <Flex direction="column" minH="100vh" bg="bg.subtle">
      <chakra.a
        href="#main-content"
        position="absolute"
        left="-9999px"
        zIndex="skipNav"
        _focus={{ left: '2', top: '2', p: '2', bg: 'bg.panel', borderRadius: 'md', shadow: 'md' }}
        onClick={(e) => {
          // The hash holds the route, so move focus instead of following the fragment.
          e.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        Skip to content
      </chakra.a>
      <TopBar bare={bare} sidebarOpen={sidebarOpen} onToggleSidebar={() => setSidebarOpen((open) => !open)} />
      <Flex flex="1" align="stretch" minH="0">
        {overlay && (
          <Box position="fixed" inset="0" top={TOP_BAR_HEIGHT} bg="blackAlpha.400" zIndex="overlay" onClick={() => setSidebarOpen(false)} aria-hidden />
        )}
        {showSidebar && (
          <Box
            as="nav"
            id="app-sidebar"
            aria-label="Main"
            w="60"
            flexShrink={0}
            bg="bg.panel"
            borderRightWidth="1px"
            onKeyDown={(e) => {
              if (overlay && e.key === 'Escape') setSidebarOpen(false);
            }}
            {...(overlay
              ? { position: 'fixed', top: TOP_BAR_HEIGHT, bottom: '0', left: '0', zIndex: 'modal', shadow: 'lg', overflowY: 'auto' }
              : { position: 'sticky', top: TOP_BAR_HEIGHT, alignSelf: 'flex-start', h: `calc(100vh - ${TOP_BAR_HEIGHT})`, overflowY: 'auto' })}
          >
            <Sidebar />
          </Box>
        )}
        <Flex direction="column" flex="1" minW="0">
          <Breadcrumbs crumbs={crumbs} />
          <Box as="main" id="main-content" tabIndex={-1} flex="1" px={{ base: '4', md: '8' }} py={{ base: '6', md: '8' }} outline="none">
            <Outlet />
          </Box>
          <Footer />
        </Flex>
      </Flex>
      <AppToaster />
    </Flex>
  );
}
