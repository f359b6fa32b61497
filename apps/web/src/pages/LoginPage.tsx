import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Checkbox, Stack } from '@chakra-ui/react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { AuthActions, AuthCard, AuthLink } from '../components/AuthCard';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { requiredMessage, useForm } from '../forms/use-form';
import { identityApi } from '../identity/identity-api';
import { SingleSignOnButtons } from '../identity/SingleSignOnButtons';

/** Why the user was sent here, and where from, passed as router state by other screens. */
export interface LoginNotice {
  notice?: string;
  /** The in-app path to return to after signing in (a guarded screen, or the page of a "Please login to …" prompt). */
  from?: string;
}

/** What an activation link says, from `#/login?activated=1|0`. */
function ActivationAlert({ activated }: { activated: string | null }) {
  if (activated === '1') {
    return (
      <Alert.Root status="success" role="status">
        <Alert.Indicator />
        <Alert.Title>Your account is activated. Please log in.</Alert.Title>
      </Alert.Root>
    );
  }
  if (activated === '0') {
    return (
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>This activation link is invalid or has expired.</Alert.Title>
          <Alert.Description>Links work once and only for a limited time. Sign up again or contact support.</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return null;
}

/** Why the API ended the session, from `#/login?session=ended` (see AuthProvider). */
export const SESSION_ENDED_NOTICE = 'Your session has ended. Please log in again.';

/** Login (spec section 2): username and password required, Remember me, first non-field error. */
export function LoginPage() {
  const { signIn } = useAuth();
  const [params] = useSearchParams();
  const notice = (useLocation().state as LoginNotice | null)?.notice ?? (params.get('session') === 'ended' ? SESSION_ENDED_NOTICE : undefined);
  const [remember, setRemember] = useState(false);
  const form = useForm({ username: '', password: '' }, (values) => ({
    username: requiredMessage(values.username, 'Username is required.'),
    password: requiredMessage(values.password, 'Password is required.'),
  }));
  const login = useMutation({ mutationFn: ({ username, password }: { username: string; password: string }) => identityApi.login(username, password) });

  const submit = form.handleSubmit(async ({ username, password }) => {
    const { token } = await login.mutateAsync({ username: username.trim(), password });
    // GuestOnly (routes/guards) then sends the signed-in user on: back to `from`, or to the records list.
    signIn(token, remember);
  });

  return (
    <AuthCard title="Login" subtitle="Log in to index data, request access and manage your organisation.">
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <Stack gap="5">
          <ActivationAlert activated={params.get('activated')} />
          {notice && (
            <Alert.Root status="info" role="status">
              <Alert.Indicator />
              <Alert.Title>{notice}</Alert.Title>
            </Alert.Root>
          )}
          <ServerErrorAlert error={form.serverError} shownFields={['username', 'password']} firstOnly />
          <TextField label="Username" autoComplete="username" required {...form.field('username')} />
          <TextField label="Password" type="password" autoComplete="current-password" required {...form.field('password')} />
          <Checkbox.Root colorPalette="teal" checked={remember} onCheckedChange={(details) => setRemember(details.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Remember me</Checkbox.Label>
          </Checkbox.Root>
          <AuthActions submitLabel="Login" submitting={form.submitting} cancelTo="/" />
          <SingleSignOnButtons />
          <Stack gap="1">
            <AuthLink prompt="No account yet?" to="/register">
              Sign Up
            </AuthLink>
            <AuthLink prompt="Forgot your password?" to="/passreset">
              Password Reset
            </AuthLink>
          </Stack>
        </Stack>
      </form>
    </AuthCard>
  );
}
