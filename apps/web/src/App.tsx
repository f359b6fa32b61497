import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider';
import { createAppRouter } from './routes/router';
import { RecordsScopeProvider } from './shell/records-scope';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});
const router = createAppRouter();

export function App() {
  return (
    <ChakraProvider value={defaultSystem}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RecordsScopeProvider>
            <RouterProvider router={router} />
          </RecordsScopeProvider>
        </AuthProvider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
