import { useMatches } from 'react-router-dom';

/** What a route tells the shell about itself (set as the route's `handle`). */
export interface RouteHandle {
  /** Breadcrumb and page-title text. */
  crumb?: string;
  /** Bare pages (login, register, password reset) hide the search box and the side menu. */
  bare?: boolean;
}

export interface Crumb {
  label: string;
  pathname: string;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null;
}

/** Handles of the matched routes, outermost first. */
export function useRouteHandles(): Array<RouteHandle & { pathname: string }> {
  return useMatches()
    .filter((match) => isRouteHandle(match.handle))
    .map((match) => ({ ...(match.handle as RouteHandle), pathname: match.pathname }));
}

export function useCrumbs(): Crumb[] {
  return useRouteHandles()
    .filter((handle): handle is RouteHandle & { crumb: string; pathname: string } => !!handle.crumb)
    .map(({ crumb, pathname }) => ({ label: crumb, pathname }));
}

export function useIsBarePage(): boolean {
  return useRouteHandles().some((handle) => handle.bare);
}
