import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';

/** Screens that need a session (Add data, Requests) send visitors without a token to Login. */
export function RequireToken({ children }: { children: ReactNode }) {
  const { token } = useAuth();
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** Back where the user was sent from, if that is a path of this app (never another site, nor a guest screen); else the records list. */
export function afterLogin(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || /^\/(login|register|passreset)\b/.test(from)) return '/records';
  return from;
}

/**
 * Login, Sign Up and Password Reset send a signed-in user on: to the screen they were sent from (a
 * guarded screen, or a "Please login to …" prompt's page, passed as router state `from`), else to the
 * records list. Login itself relies on it after signing in.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { token } = useAuth();
  const state = useLocation().state as { from?: unknown } | null;
  if (token) return <Navigate to={afterLogin(state?.from)} replace />;
  return children;
}
