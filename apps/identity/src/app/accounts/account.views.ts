import { permissionsOfGroups } from '@dc/contracts';
import { Account, Organisation } from './account';

/** An account as GET/PUT /api/account/{id}/ answer it. */
export function toAccountView(account: Account) {
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

export function toOrganisationDetails(organisation: Organisation) {
  return { id: organisation.id, name: organisation.name, email: organisation.email, description: organisation.description };
}

/** The caller, as GET /api/account/user-account/ answers. */
export function toUserAccountView(account: Account, organisation: Organisation) {
  return { ...toAccountView(account), permissions: permissionsOfGroups(account.groups), organisation_details: toOrganisationDetails(organisation) };
}

export type AccountView = ReturnType<typeof toAccountView>;
