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

/** Login, Sign Up and Password Reset send a signed-in user to the records list. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { token } = useAuth();
  if (token) return <Navigate to="/records" replace />;
  return children;
}
