import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { ApiError, onUnauthorised } from '../api/client';
import { typedApi } from '../api/typed';
import type { ClientType, UserAccount } from '../api/types';
import { clearToken, readToken, TOKEN_KEY, writeToken } from '../api/token-storage';
import { accountKeys } from '../shared/query-keys';

/** Login's address after the API refused the session's token: it says why the user must log in again. */
export const SESSION_ENDED_PATH = '/login?session=ended';

export interface AuthState {
  /** The JWT of the session, or null when signed out. */
  token: string | null;
  isSignedIn: boolean;
  /** The signed-in user's account, once loaded. */
  user: UserAccount | undefined;
  /** Undefined while signed out or before the account has loaded. */
  clientType: ClientType | undefined;
  isLoadingUser: boolean;
  hasPermission(permission: string): boolean;
  signIn(token: string, remember: boolean): void;
  signOut(): void;
}

const AuthContext = createContext<AuthState | null>(null);

function toClientType(value: string | undefined): ClientType | undefined {
  return value === 'BASIC' || value === 'STANDARD' ? value : undefined;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);

  const signIn = useCallback((next: string, remember: boolean) => {
    writeToken(next, remember);
    setToken(next);
  }, []);

  const signOut = useCallback(() => {
    clearToken();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  // Any call refused with 401 ends the session it was made for; an answer meant for an earlier
  // session (a call still in flight when the user signed out or in again) changes nothing.
  const [sessionEnded, setSessionEnded] = useState(false);
  useEffect(
    () =>
      onUnauthorised((refused) => {
        if (refused !== readToken()) return;
        signOut();
        setSessionEnded(true);
      }),
    [signOut],
  );
  // Once signed out (so Login no longer sends the user on to /records), go to Login. The provider
  // wraps the router, so it moves the hash, which the hash router follows.
  useEffect(() => {
    if (!sessionEnded || token) return;
    setSessionEnded(false);
    window.location.replace(`#${SESSION_ENDED_PATH}`);
  }, [sessionEnded, token]);

  // Signing in or out in another tab changes localStorage; follow it here.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) setToken(readToken());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const userQuery = useQuery({
    queryKey: accountKeys.session(token),
    queryFn: ({ signal }) => typedApi.get('/api/account/user-account', { token, signal }),
    enabled: !!token,
    staleTime: 5 * 60_000,
    // A 401 is final: onUnauthorised above has ended the session.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 401) && failures < 1,
  });

  const user = token ? userQuery.data : undefined;
  const value = useMemo<AuthState>(
    () => ({
      token,
      isSignedIn: !!token,
      user,
      clientType: toClientType(user?.client_type),
      isLoadingUser: !!token && userQuery.isPending,
      hasPermission: (permission) => !!user?.permissions?.includes(permission),
      signIn,
      signOut,
    }),
    [token, user, userQuery.isPending, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}

/** Ends the token on the server, signs out and goes to Home (spec: "Logout goes to Home"). */
export function useLogout(): () => void {
  const { signOut, token } = useAuth();
  const navigate = useNavigate();
  // The server's answer changes nothing here: a failed logout is not reported.
  const { mutate: endSession } = useMutation({ mutationFn: (ended: string) => typedApi.post('/api/logout', undefined, { token: ended }) });
  return useCallback(() => {
    // The browser forgets the token at once.
    if (token) endSession(token);
    signOut();
    navigate('/', { replace: true });
  }, [signOut, navigate, token, endSession]);
}
