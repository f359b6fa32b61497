import { z } from 'zod';
import { withoutBidiControls } from '@dc/contracts';

/** Field rules shared by registration, account administration, profile and password forms. */
export const REQUIRED = 'This field is required.';
export const PASSWORD_TOO_SHORT = 'This password is too short. It must contain at least 8 characters.';
export const PASSWORDS_DONT_MATCH = "Passwords don't match.";
export const INVALID_EMAIL = 'Enter a valid email address.';
export const INVALID_USERNAME = 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.';
export const MIN_PASSWORD_LENGTH = 8;
export const USERNAME_TAKEN = 'A user with that username already exists.';
export const EMAIL_TAKEN = 'A user with that email already exists.';

// abort: an empty field reports only that it is required, not every other rule as well.
export const requiredText = (message: string = REQUIRED) => z.string({ error: message }).trim().min(1, { error: message, abort: true });

/** A name a person gives (first and last names, an organisation's): required, without bidi controls. */
export const requiredName = (message: string = REQUIRED) => withoutBidiControls(requiredText(message));

export const usernameField = () =>
  requiredName()
    .max(150, 'Ensure this field has no more than 150 characters.')
    .regex(/^[\w.@+-]+$/, INVALID_USERNAME);

export const emailField = () => requiredText().pipe(z.email({ error: INVALID_EMAIL }));

/** Passwords are taken as typed: no trimming. */
export const requiredSecret = () => z.string({ error: REQUIRED }).min(1, { error: REQUIRED, abort: true });

export const newPasswordField = () => requiredSecret().min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT);

/** Checks a confirmation field against its password once both were given (even when other fields fail). */
export function confirmationMatches<T extends z.ZodType>(schema: T, password: string, confirmation: string): T {
  return schema.refine((value) => (value as Record<string, unknown>)[password] === (value as Record<string, unknown>)[confirmation], {
    path: [confirmation],
    message: PASSWORDS_DONT_MATCH,
    when: (payload) => {
      const value = payload.value as Record<string, unknown> | undefined;
      return typeof value?.[password] === 'string' && value[password] !== '' && typeof value?.[confirmation] === 'string' && value[confirmation] !== '';
    },
  });
}
