import { z } from 'zod';
import { CLIENT_TYPES, isGroupId, strictPageOf } from '@dc/contracts';
import { confirmationMatches, emailField, newPasswordField, requiredName, requiredSecret, usernameField } from './fields';

const name = (message: string) => requiredName(message).max(150, 'Ensure this field has no more than 150 characters.');

/** Group ids 1, 2, 3 (numbers, or digits as strings); duplicates are dropped. */
const groupsField = () =>
  z
    .array(
      z
        .preprocess((value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value), z.number({ error: 'A group must be 1, 2 or 3.' }))
        .refine(isGroupId, 'A group must be 1 (Access Admin), 2 (Data Admin) or 3 (Data Viewer).'),
      { error: 'Expected a list of group ids.' },
    )
    .transform((groups) => [...new Set(groups)].sort((a, b) => a - b));

const clientTypeField = () => z.enum(CLIENT_TYPES, { error: 'Choose STANDARD or BASIC.' });
const activeField = () => z.boolean({ error: 'Must be true or false.' });

/** POST /api/account/: a new sub-account of the caller's organisation. */
export const createAccountSchema = confirmationMatches(
  z.object({
    username: usernameField(),
    email: emailField(),
    first_name: name('First Name is required'),
    last_name: name('Last Name is required'),
    password: newPasswordField(),
    // Optional here (an admin types it once), checked when sent.
    password_confirm: z.string().optional(),
    groups: groupsField().optional(),
    client_type: clientTypeField().optional(),
    active: activeField().optional(),
  }),
  'password',
  'password_confirm',
);
export type CreateAccountDto = z.infer<typeof createAccountSchema>;

/** PUT and PATCH /api/account/{id}/: the fields sent are changed, the others kept. */
export const updateAccountSchema = z.object({
  username: usernameField().optional(),
  email: emailField().optional(),
  first_name: name('First Name is required').optional(),
  last_name: name('Last Name is required').optional(),
  groups: groupsField().optional(),
  client_type: clientTypeField().optional(),
  active: activeField().optional(),
});
export type UpdateAccountDto = z.infer<typeof updateAccountSchema>;

/** POST /api/account/{id}/set_password/ */
export const setPasswordSchema = confirmationMatches(
  z.object({ new_password: newPasswordField(), new_password_confirm: requiredSecret() }),
  'new_password',
  'new_password_confirm',
);
export type SetPasswordDto = z.infer<typeof setPasswordSchema>;

/** GET /api/account/?page=&page_size= (a huge page is capped as every list's is, so it answers as a page past the end) */
export const listAccountsSchema = z.object({
  page: z.preprocess(
    (value) => (value === undefined ? value : (strictPageOf(value) ?? value)),
    z.coerce.number({ error: 'Invalid page.' }).int('Invalid page.').min(1, 'Invalid page.').default(1),
  ),
  page_size: z.coerce
    .number({ error: 'Invalid page size.' })
    .int('Invalid page size.')
    .min(1, 'Invalid page size.')
    .max(500, 'Ensure this value is less than or equal to 500.')
    .default(100),
});
export type ListAccountsDto = z.infer<typeof listAccountsSchema>;
