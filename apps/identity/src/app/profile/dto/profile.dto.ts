import { z } from 'zod';
import { confirmationMatches, newPasswordField, requiredName, requiredSecret } from '../../accounts/dto/fields';

/** PUT /api/change-profile-information/ */
export const profileInformationSchema = z.object({
  first_name: requiredName('First Name is required').max(150, 'Ensure this field has no more than 150 characters.'),
  last_name: requiredName('Last Name is required').max(150, 'Ensure this field has no more than 150 characters.'),
});
export type ProfileInformationDto = z.infer<typeof profileInformationSchema>;

/** PUT /api/change-password/ */
export const changePasswordSchema = confirmationMatches(
  z.object({
    old_password: requiredSecret(),
    new_password: newPasswordField(),
    new_password_confirm: requiredSecret(),
  }),
  'new_password',
  'new_password_confirm',
);
export type ChangePasswordDto = z.infer<typeof changePasswordSchema>;
