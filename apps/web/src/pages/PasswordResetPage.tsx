import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Stack } from '@chakra-ui/react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { AuthActions, AuthCard, AuthLink } from '../components/AuthCard';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { EMAIL_PATTERN, requiredMessage, useForm } from '../forms/use-form';
import { identityApi } from '../identity/identity-api';

/** Without a token: ask for a reset email. The answer is the same whether or not the account exists. */
function RequestResetForm() {
  const [sent, setSent] = useState<string | null>(null);
  const requestReset = useMutation({ mutationFn: identityApi.requestPasswordReset });
  const form = useForm({ email: '' }, ({ email }) => ({
    email: requiredMessage(email, 'Email is required.') ?? (EMAIL_PATTERN.test(email.trim()) ? undefined : 'Enter a valid email address.'),
  }));
  const submit = form.handleSubmit(async ({ email }) => {
    const answer = await requestReset.mutateAsync(email.trim());
    setSent(answer?.message ?? 'If an account uses this email, a link to reset the password was sent to it.');
  });

  return (
    <AuthCard title="Password Reset" subtitle="Enter the email of your account to receive a link with a new reset token.">
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <Stack gap="5">
          {sent && (
            <Alert.Root status="success" role="status">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{sent}</Alert.Title>
                <Alert.Description>Follow the link in the email to choose a new password.</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <ServerErrorAlert error={form.serverError} shownFields={['email']} firstOnly />
          <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
          <AuthActions submitLabel="Reset Password" submitting={form.submitting} cancelTo="/login" />
          <AuthLink prompt="Remembered it?" to="/login">
            Login
          </AuthLink>
        </Stack>
      </form>
    </AuthCard>
  );
}

/** With the token and email of the emailed link: choose the new password. */
function SetNewPasswordForm({ token, email }: { token: string; email: string }) {
  const [done, setDone] = useState<string | null>(null);
  const resetPassword = useMutation({ mutationFn: identityApi.resetPassword });
  const form = useForm({ password: '', password_confirm: '' }, (values) => ({
    password: requiredMessage(values.password, 'New password is required.'),
    password_confirm:
      requiredMessage(values.password_confirm, 'Please confirm the new password.') ??
      (values.password_confirm === values.password ? undefined : "Passwords don't match."),
  }));
  const submit = form.handleSubmit(async (values) => {
    const answer = await resetPassword.mutateAsync({ email, token, ...values });
    setDone(answer?.message ?? 'Your password was updated.');
    form.reset();
  });

  return (
    <AuthCard title="Password Reset" subtitle={<>Choose a new password for {email}.</>}>
      {done ? (
        <Stack gap="5">
          <Alert.Root status="success" role="status">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{done}</Alert.Title>
              <Alert.Description>You can now log in with the new password.</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Button asChild colorPalette="teal" alignSelf="start">
            <RouterLink to="/login">Login</RouterLink>
          </Button>
        </Stack>
      ) : (
        <form ref={form.formRef} noValidate onSubmit={submit}>
          <Stack gap="5">
            <ServerErrorAlert error={form.serverError} shownFields={['password', 'password_confirm']} firstOnly />
            {/* Lets password managers store the new password under the right account. */}
            <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
            <TextField label="New password" type="password" autoComplete="new-password" required {...form.field('password')} />
            <TextField label="Confirm new password" type="password" autoComplete="new-password" required {...form.field('password_confirm')} />
            <Button type="submit" colorPalette="teal" loading={form.submitting}>
              Update Password
            </Button>
            <AuthLink prompt="Changed your mind?" to="/login">
              Login
            </AuthLink>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

/** Password Reset (spec section 2): reads `token` and `email` from the query string. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  return token && email ? <SetNewPasswordForm token={token} email={email} /> : <RequestResetForm />;
}
