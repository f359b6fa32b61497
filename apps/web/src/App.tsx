import { ButtonPropsProvider, ChakraProvider, Spinner, VisuallyHidden } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider';
import { createAppRouter } from './routes/router';
import { RecordsScopeProvider } from './shell/records-scope';
import { system } from './theme';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});
const router = createAppRouter();

/**
 * Chakra hides a loading button's label (visibility: hidden) behind its spinner, which leaves the
 * button with no accessible name while it works; every button's spinner says so in words instead.
 */
const buttonDefaults = {
  spinner: (
    <>
      <Spinner size="inherit" borderWidth="0.125em" color="inherit" />
      <VisuallyHidden>Working…</VisuallyHidden>
    </>
  ),
};

export function App() {
  return (
    <ChakraProvider value={system}>
      <ButtonPropsProvider value={buttonDefaults}>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <RecordsScopeProvider>
              <RouterProvider router={router} />
            </RecordsScopeProvider>
          </AuthProvider>
        </QueryClientProvider>
      </ButtonPropsProvider>
    </ChakraProvider>
  );
}
