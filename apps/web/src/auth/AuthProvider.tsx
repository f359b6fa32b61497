import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../api/client';
import type { ClientType, UserAccount } from '../api/types';
import { clearToken, readToken, TOKEN_KEY, writeToken } from './token-storage';

export const USER_ACCOUNT_QUERY_KEY = ['user-account'] as const;

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

  // Signing in or out in another tab changes localStorage; follow it here.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) setToken(readToken());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const userQuery = useQuery({
    queryKey: [...USER_ACCOUNT_QUERY_KEY, token],
    queryFn: ({ signal }) => api.get<UserAccount>('/api/account/user-account/', { token, signal }),
    enabled: !!token,
    staleTime: 5 * 60_000,
    retry: (failures, error) => !(error instanceof ApiError && error.status === 401) && failures < 1,
  });

  // An expired or revoked token: the session is over.
  const unauthorised = userQuery.error instanceof ApiError && userQuery.error.status === 401;
  useEffect(() => {
    if (unauthorised) signOut();
  }, [unauthorised, signOut]);

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

/** Signs out and goes to Home (spec: "Logout goes to Home"). */
export function useLogout(): () => void {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(() => {
    signOut();
    navigate('/', { replace: true });
  }, [signOut, navigate]);
}
