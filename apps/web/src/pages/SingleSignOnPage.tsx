import { useEffect, useRef, useState } from 'react';
import { Alert, Stack } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { AuthCard, AuthLink } from '../components/AuthCard';
import { LoadingState } from '../components/LoadingState';
import { toApiError } from '../forms/use-form';
import { ssoApi } from '../identity/sso-api';

const NO_RESULT = 'This page completes a sign-in with your organisation, but no sign-in was found in its address. Please sign in again.';

/**
 * Where the product sends the browser back after the provider (#/login/sso?result=…): the one-time
 * result is exchanged for the product's JWT, stored like a password login's (for this browser
 * session), and GuestOnly then moves on to the records list. A failed sign-in shows why.
 */
export function SingleSignOnPage() {
  const { signIn } = useAuth();
  const [params] = useSearchParams();
  const result = params.get('result');
  const [error, setError] = useState<string | null>(result ? null : NO_RESULT);
  // The result works once: React's development double effects must not spend it twice.
  const exchanged = useRef(false);

  useEffect(() => {
    if (!result || exchanged.current) return;
    exchanged.current = true;
    ssoApi.exchange(result).then(
      ({ token }) => signIn(token, false),
      (failure: unknown) => setError(toApiError(failure).message),
    );
  }, [result, signIn]);

  return (
    <AuthCard title="Sign in with your organisation">
      <Stack gap="4">
        {error ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>The sign-in did not succeed.</Alert.Title>
              <Alert.Description>{error}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <LoadingState label="Signing you in…" />
        )}
        {error && (
          <AuthLink prompt="Try again, or use your password:" to="/login">
            Back to Login
          </AuthLink>
        )}
      </Stack>
    </AuthCard>
  );
}
