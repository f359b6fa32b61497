import { z } from 'zod';
import { confirmationMatches, emailField, newPasswordField, requiredSecret, requiredText } from '../../accounts/dto/fields';

/** POST /api/password/confirm/ */
export const resetRequestSchema = z.object({ email: emailField() });
export type ResetRequestDto = z.infer<typeof resetRequestSchema>;

/** POST /api/password/check/ */
export const resetConfirmSchema = confirmationMatches(
  z.object({
    email: emailField(),
    token: requiredText().max(200, 'Invalid token.'),
    password: newPasswordField(),
    password_confirm: requiredSecret(),
  }),
  'password',
  'password_confirm',
);
export type ResetConfirmDto = z.infer<typeof resetConfirmSchema>;
