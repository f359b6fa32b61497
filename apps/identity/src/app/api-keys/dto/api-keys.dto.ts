import { z } from 'zod';
import { requiredSecret } from '../../accounts/dto/fields';

/** POST /api/user-api-keys/ */
export const newApiKeySchema = z.object({ password: requiredSecret() });
export type NewApiKeyDto = z.infer<typeof newApiKeySchema>;
