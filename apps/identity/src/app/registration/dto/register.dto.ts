import { z } from 'zod';
import { confirmationMatches, emailField, newPasswordField, requiredName, requiredSecret, requiredText, usernameField } from '../../accounts/dto/fields';

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
  }),
  'password',
  'password_confirm',
);

export type RegisterDto = z.infer<typeof registerSchema>;
