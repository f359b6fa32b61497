import { z } from 'zod';
import { INVALID_EMAIL, requiredName } from '../../accounts/dto/fields';

/** PUT /api/organisation/{id}/: a name is required; email (blank or valid) and description are kept when left out. */
export const organisationSchema = z.object({
  name: requiredName().max(200, 'Ensure this field has no more than 200 characters.'),
  email: z
    .string({ error: 'Not a valid string.' })
    .trim()
    .refine((value) => value === '' || z.email().safeParse(value).success, INVALID_EMAIL)
    .optional(),
  description: z.string({ error: 'Not a valid string.' }).max(5000, 'Ensure this field has no more than 5000 characters.').optional(),
});
export type OrganisationDto = z.infer<typeof organisationSchema>;
