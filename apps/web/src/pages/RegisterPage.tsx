import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { AuthActions, AuthCard, AuthLink } from '../components/AuthCard';
import { ServerErrorAlert } from '../forms/ServerErrorAlert';
import { TextField } from '../forms/TextField';
import { requiredMessage, useForm, type FieldMessages } from '../forms/use-form';
import { NewAccountFields, newAccountMessages } from '../identity/AccountFields';
import { identityApi } from '../identity/identity-api';

const FIELDS = ['username', 'email', 'first_name', 'last_name', 'password', 'password_confirm', 'organisation_name', 'description'] as const;
type RegisterValues = Record<(typeof FIELDS)[number], string>;

const namedAfter = (values: RegisterValues) => [values.first_name.trim(), values.last_name.trim()].filter(Boolean).join(' ');

/** Spec section 5, "Sign-up". */
function validate(values: RegisterValues): FieldMessages {
  return {
    ...newAccountMessages(values),
    description: requiredMessage(values.description, 'A description is required.'),
    organisation_name: values.organisation_name.trim().length > 200 ? 'Ensure this field has no more than 200 characters.' : undefined,
  };
}

/** Sign Up (spec section 2): on success the user is told to follow the emailed activation link. */
export function RegisterPage() {
  const [sent, setSent] = useState<{ email: string; message?: string } | null>(null);
  const register = useMutation({ mutationFn: identityApi.register });
  const form = useForm<RegisterValues>(
    { username: '', email: '', first_name: '', last_name: '', password: '', password_confirm: '', organisation_name: '', description: '' },
    validate,
  );

  const submit = form.handleSubmit(async (values) => {
    const email = values.email.trim();
    const { organisation_name, ...rest } = values;
    const organisation = organisation_name.trim();
    const answer = await register.mutateAsync({
      ...rest,
      // Left blank, the organisation is named after the person (as before the field existed).
      ...(organisation && { organisation_name: organisation }),
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
          <NewAccountFields field={form.field} own />
          <TextField
            label="Organisation name"
            autoComplete="organization"
            helperText={`Optional. Data owners see it when you request their data. Left blank, the organisation is named after you${namedAfter(form.values) ? ` (${namedAfter(form.values)})` : ''}; you can rename it later under Profile, Organisation.`}
            {...form.field('organisation_name')}
          />
          <TextField label="Description" multiline required helperText="Say something about you or your organisation." {...form.field('description')} />
          <Text fontSize="sm" color="fg.muted">
            By signing up you agree to the terms of use and the privacy policy.
          </Text>
          <AuthActions submitLabel="Sign Up" submitting={form.submitting} cancelTo="/" />
          <AuthLink prompt="Already have an account?" to="/login">
            Login
          </AuthLink>
        </Stack>
      </form>
    </AuthCard>
  );
}
