import type { ServiceName } from '@dc/platform';

/**
 * Which service answers which API path (distributed mode). Order matters: the first match wins.
 * The record list belongs to the search service; every other record call to the catalogue.
 */
export interface Route {
  service: ServiceName;
  prefix: string;
  methods?: string[];
  exact?: boolean;
}

export const ROUTES: Route[] = [
  { service: 'search', prefix: '/api/records', methods: ['GET', 'HEAD'], exact: true },
  { service: 'search', prefix: '/api/recordsannon' },
  { service: 'identity', prefix: '/api/register' },
  { service: 'identity', prefix: '/api-token-auth' },
  { service: 'identity', prefix: '/api/logout' },
  { service: 'identity', prefix: '/api/account' },
  { service: 'identity', prefix: '/api/password' },
  { service: 'identity', prefix: '/api/change-profile-information' },
  { service: 'identity', prefix: '/api/change-password' },
  { service: 'identity', prefix: '/api/user-api-keys' },
  { service: 'identity', prefix: '/api/organisation' },
  { service: 'identity', prefix: '/api/userprofile-autofill-list' },
  { service: 'identity', prefix: '/api/organisation-autofill-list' },
  { service: 'identity', prefix: '/api/sso' },
  { service: 'catalogue', prefix: '/api/records' },
  { service: 'catalogue', prefix: '/api/files' },
  { service: 'catalogue', prefix: '/api/accessoptions' },
  { service: 'catalogue', prefix: '/api/visibilities' },
  { service: 'catalogue', prefix: '/api/policies' },
  { service: 'catalogue', prefix: '/api/groups' },
  { service: 'catalogue', prefix: '/api/connections' },
  { service: 'catalogue', prefix: '/api/connect-aws' },
  { service: 'catalogue', prefix: '/api/harvests' },
  { service: 'catalogue', prefix: '/api/dcat' },
  { service: 'requests', prefix: '/api/requests' },
  { service: 'requests', prefix: '/api/request-messages' },
  { service: 'relations', prefix: '/api/relations' },
  { service: 'jobs', prefix: '/api/tasks' },
  { service: 'jobs', prefix: '/api/webhooks' },
];

/** The service for a request, or undefined (the gateway then answers 404 itself). */
export function routeFor(method: string, url: string): ServiceName | undefined {
  const pathname = url.split('?')[0].replace(/\/+$/, '') || '/';
  for (const route of ROUTES) {
    if (route.methods && !route.methods.includes(method.toUpperCase())) continue;
    const matches = route.exact ? pathname === route.prefix : pathname === route.prefix || pathname.startsWith(`${route.prefix}/`);
    if (matches) return route.service;
  }
  return undefined;
}
