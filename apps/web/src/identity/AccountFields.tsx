import { SimpleGrid } from '@chakra-ui/react';
import { TextField } from '../forms/TextField';
import { EMAIL_PATTERN, requiredMessage, type FieldMessages } from '../forms/use-form';

/** The values a new account starts with: Sign Up and New Account ask for the same ones. */
export type NewAccountValues = Record<'username' | 'email' | 'first_name' | 'last_name' | 'password' | 'password_confirm', string>;

export function emailMessage(email: string): string | undefined {
  return requiredMessage(email, 'Email is required.') ?? (EMAIL_PATTERN.test(email.trim()) ? undefined : 'Enter a valid email address.');
}

export function passwordMessages(password: string, confirm: string, names: [string, string]): FieldMessages {
  return {
    [names[0]]: requiredMessage(password, 'Password is required.'),
    [names[1]]: requiredMessage(confirm, 'Please confirm the password.') ?? (confirm === password ? undefined : "Passwords don't match."),
  };
}

/** The client-side messages of a new account's fields (spec section 5, "Sign-up"). */
export function newAccountMessages(values: NewAccountValues): FieldMessages {
  return {
    username: requiredMessage(values.username, 'Username is required.'),
    email: emailMessage(values.email),
    first_name: requiredMessage(values.first_name, 'First Name is required'),
    last_name: requiredMessage(values.last_name, 'Last Name is required'),
    ...passwordMessages(values.password, values.password_confirm, ['password', 'password_confirm']),
  };
}

interface FieldBinding {
  name: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
}

/**
 * A new account's fields: username, email, names and the password twice. `own`: the user's own
 * account (Sign Up), so the browser may fill in their details; otherwise someone else's.
 */
export function NewAccountFields({ field, own }: { field: (name: keyof NewAccountValues) => FieldBinding; own: boolean }) {
  const autoComplete = (value: string) => (own ? value : 'off');
  return (
    <>
      <TextField label="Username" autoComplete={autoComplete('username')} required {...field('username')} />
      <TextField label="Email" type="email" autoComplete={autoComplete('email')} required {...field('email')} />
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <TextField label="First name" autoComplete={autoComplete('given-name')} required {...field('first_name')} />
        <TextField label="Last name" autoComplete={autoComplete('family-name')} required {...field('last_name')} />
        <TextField label="Password" type="password" autoComplete="new-password" required {...field('password')} />
        <TextField label="Confirm password" type="password" autoComplete="new-password" required {...field('password_confirm')} />
      </SimpleGrid>
    </>
  );
}
