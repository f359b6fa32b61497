import { z } from 'zod';
import { CLIENT_TYPES, permissionsOfGroups } from '@dc/contracts';
import { isoDateTime, pagedSchema } from '@dc/platform';
import { Account, Organisation } from './account';

/** An account as GET/PUT /api/account/{id}/ answer it (the OpenAPI document's schema). */
export const accountViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  client_type: z.enum(CLIENT_TYPES),
  active: z.boolean(),
  groups: z.array(z.number().int()).describe('1 Access Admin, 2 Data Admin, 3 Data Viewer'),
  date_joined: isoDateTime,
  organisation: z.string(),
});
export const accountPageSchema = pagedSchema(accountViewSchema);

export const organisationDetailsSchema = z.object({ id: z.string(), name: z.string(), email: z.string(), description: z.string() });
export const organisationViewSchema = organisationDetailsSchema.extend({ userprofile_set: z.array(z.string()).describe('ids of the members') });

export const userAccountViewSchema = accountViewSchema.extend({ permissions: z.array(z.string()), organisation_details: organisationDetailsSchema });

export type AccountView = z.output<typeof accountViewSchema>;

export function toAccountView(account: Account): AccountView {
  return {
    id: account.id,
    username: account.username,
    first_name: account.firstName,
    last_name: account.lastName,
    email: account.email,
    client_type: account.clientType,
    active: account.active,
    groups: [...account.groups].sort((a, b) => a - b),
    date_joined: account.dateJoined.toISOString(),
    organisation: account.organisationId,
  };
}

export function toOrganisationDetails(organisation: Organisation): z.output<typeof organisationDetailsSchema> {
  return { id: organisation.id, name: organisation.name, email: organisation.email, description: organisation.description };
}

/** The caller, as GET /api/account/user-account/ answers. */
export function toUserAccountView(account: Account, organisation: Organisation): z.output<typeof userAccountViewSchema> {
  return { ...toAccountView(account), permissions: permissionsOfGroups(account.groups), organisation_details: toOrganisationDetails(organisation) };
}
