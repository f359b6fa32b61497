import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { Shell } from '../shell/Shell';
import { HomePage } from '../pages/HomePage';
import { RecordsPage } from '../pages/RecordsPage';
import { RecordDetailsPage } from '../pages/RecordDetailsPage';
import { RecordEditPage } from '../pages/RecordEditPage';
import { IndexDataPage } from '../pages/IndexDataPage';
import { RequestsPage } from '../pages/RequestsPage';
import { LoginPage } from '../pages/LoginPage';
import { SingleSignOnPage } from '../pages/SingleSignOnPage';
import { RegisterPage } from '../pages/RegisterPage';
import { PasswordResetPage } from '../pages/PasswordResetPage';
import { ProfilePage } from '../pages/ProfilePage';
import { AccessPoliciesPage } from '../pages/AccessPoliciesPage';
import { GroupsPage } from '../pages/GroupsPage';
import { JobsPage } from '../pages/JobsPage';
import { GuestOnly, RequireToken } from './guards';
import type { RouteHandle } from '../shell/route-handle';

const handle = (value: RouteHandle) => value;

/** The route table of spec section 2; every screen renders inside the shell. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    handle: handle({ crumb: 'Home' }),
    children: [
      { index: true, element: <HomePage /> },
      {
        path: 'records',
        handle: handle({ crumb: 'Workspace' }),
        children: [
          { index: true, element: <RecordsPage /> },
          { path: 'edit/:id', element: <RecordEditPage />, handle: handle({ crumb: 'Edit record' }) },
          { path: ':id', element: <RecordDetailsPage />, handle: handle({ crumb: 'Record details' }) },
        ],
      },
      {
        path: 'indexdata',
        element: (
          <RequireToken>
            <IndexDataPage />
          </RequireToken>
        ),
        handle: handle({ crumb: 'Index Data' }),
      },
      {
        path: 'request',
        element: (
          <RequireToken>
            <RequestsPage />
          </RequireToken>
        ),
        handle: handle({ crumb: 'Requests' }),
      },
      {
        path: 'login',
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
        handle: handle({ crumb: 'Login', bare: true }),
      },
      {
        path: 'login/sso',
        element: (
          <GuestOnly>
            <SingleSignOnPage />
          </GuestOnly>
        ),
        handle: handle({ crumb: 'Login', bare: true }),
      },
      {
        path: 'register',
        element: (
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        ),
        handle: handle({ crumb: 'Sign Up', bare: true }),
      },
      {
        path: 'passreset',
        element: (
          <GuestOnly>
            <PasswordResetPage />
          </GuestOnly>
        ),
        handle: handle({ crumb: 'Password Reset', bare: true }),
      },
      { path: 'profile', element: <ProfilePage />, handle: handle({ crumb: 'Profile' }) },
      { path: 'access-policies', element: <AccessPoliciesPage />, handle: handle({ crumb: 'Access Policies' }) },
      // The route keeps the spec's /groups; users see Projects (issue 25: one word for a project).
      { path: 'groups', element: <GroupsPage />, handle: handle({ crumb: 'Projects' }) },
      { path: 'jobs', element: <JobsPage />, handle: handle({ crumb: 'Backend Jobs' }) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createHashRouter(routes);
}
