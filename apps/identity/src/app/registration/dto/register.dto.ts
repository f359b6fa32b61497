import { z } from 'zod';
import { confirmationMatches, emailField, newPasswordField, requiredName, requiredSecret, requiredText, usernameField } from '../../accounts/dto/fields';

export const ORGANISATION_NAME_TOO_LONG = 'Ensure this field has no more than 200 characters.';

/** POST /api/register/ — the spec's required fields and messages (section 5). */
export const registerSchema = confirmationMatches(
  z.object({
    username: usernameField(),
    email: emailField(),
    first_name: requiredName('First Name is required'),
    last_name: requiredName('Last Name is required'),
    description: requiredText('A description is required.'),
    password: newPasswordField(),
    password_confirm: requiredSecret(),
    // Optional (beyond the spec): without it the organisation is named after the person, as before.
    organisation_name: z
      .preprocess(
        (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
        requiredName().max(200, ORGANISATION_NAME_TOO_LONG).optional(),
      )
      .describe("Beyond the spec, optional: the new organisation's name (at most 200 characters); without it, the first and last names."),
  }),
  'password',
  'password_confirm',
);

export type RegisterDto = z.infer<typeof registerSchema>;
