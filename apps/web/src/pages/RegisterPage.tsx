import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { AuthCard } from '../components/AuthCard';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { EMAIL_PATTERN, requiredMessage, useForm, type FieldMessages } from '../forms/use-form';
import { identityApi } from '../identity/identity-api';

const FIELDS = ['username', 'email', 'first_name', 'last_name', 'password', 'password_confirm', 'description'] as const;
type RegisterValues = Record<(typeof FIELDS)[number], string>;

/** Spec section 5, "Sign-up". */
function validate(values: RegisterValues): FieldMessages {
  return {
    username: requiredMessage(values.username, 'Username is required.'),
    email: requiredMessage(values.email, 'Email is required.') ?? (EMAIL_PATTERN.test(values.email.trim()) ? undefined : 'Enter a valid email address.'),
    first_name: requiredMessage(values.first_name, 'First Name is required'),
    last_name: requiredMessage(values.last_name, 'Last Name is required'),
    password: requiredMessage(values.password, 'Password is required.'),
    password_confirm:
      requiredMessage(values.password_confirm, 'Please confirm the password.') ??
      (values.password_confirm === values.password ? undefined : "Passwords don't match."),
    description: requiredMessage(values.description, 'A description is required.'),
  };
}

/** Sign Up (spec section 2): on success the user is told to follow the emailed activation link. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [sent, setSent] = useState<{ email: string; message?: string } | null>(null);
  const register = useMutation({ mutationFn: identityApi.register });
  const form = useForm<RegisterValues>(
    { username: '', email: '', first_name: '', last_name: '', password: '', password_confirm: '', description: '' },
    validate,
  );

  const submit = form.handleSubmit(async (values) => {
    const email = values.email.trim();
    const answer = await register.mutateAsync({
      ...values,
      username: values.username.trim(),
      email,
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      description: values.description.trim(),
    });
    setSent({ email, message: answer?.message });
  });

  if (sent) {
    return (
      <AuthCard title="Sign Up" width="md">
        <Alert.Root status="success" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{sent.message ?? 'Check your email'}</Alert.Title>
            <Alert.Description>
              A registration email was sent to <strong>{sent.email}</strong>. Follow the link in it to activate your account, then log in.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Text fontSize="sm" color="fg.muted">
          No email after a few minutes? Check your spam folder.
        </Text>
        <Button asChild colorPalette="teal" alignSelf="start">
          <RouterLink to="/login">Go to Login</RouterLink>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Sign Up" subtitle="Create an account and an organisation to index and share data." width="lg">
      <form ref={form.formRef} noValidate onSubmit={submit}>
        <Stack gap="4">
          <ServerErrorAlert error={form.serverError} shownFields={FIELDS} />
          <TextField label="Username" autoComplete="username" required {...form.field('username')} />
          <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <TextField label="First name" autoComplete="given-name" required {...form.field('first_name')} />
            <TextField label="Last name" autoComplete="family-name" required {...form.field('last_name')} />
            <TextField label="Password" type="password" autoComplete="new-password" required {...form.field('password')} />
            <TextField label="Confirm password" type="password" autoComplete="new-password" required {...form.field('password_confirm')} />
          </SimpleGrid>
          <TextField label="Description" multiline required helperText="Say something about you or your organisation." {...form.field('description')} />
          <Text fontSize="sm" color="fg.muted">
            By signing up you agree to the terms of use and the privacy policy.
          </Text>
          <HStack gap="3">
            <Button type="submit" colorPalette="teal" loading={form.submitting} flex="1">
              Sign Up
            </Button>
            <Button variant="outline" flex="1" onClick={() => navigate('/')}>
              Cancel
            </Button>
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            Already have an account?{' '}
            <Link asChild colorPalette="teal" variant="underline">
              <RouterLink to="/login">Login</RouterLink>
            </Link>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
