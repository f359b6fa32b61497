import { z } from 'zod';
import { requiredSecret, requiredText } from '../../accounts/dto/fields';

/** POST /api-token-auth/: a username and password, or an api_token and api_secret in their places. */
export const loginSchema = z.object({
  username: requiredText().max(200, 'Ensure this field has no more than 200 characters.'),
  password: requiredSecret().max(1000, 'Ensure this field has no more than 1000 characters.'),
});

export type LoginDto = z.infer<typeof loginSchema>;
