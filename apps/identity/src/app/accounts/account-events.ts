import { createEvent, EventEnvelope, OrganisationUpdated, UserRegistered, UserUpdated } from '@dc/contracts';
import { currentCorrelationId } from '@dc/platform';
import { Account, Organisation } from './account';

/** The events other services build their projections from (search, catalogue, requests). */
function personDetails(account: Account) {
  return { firstName: account.firstName, lastName: account.lastName, email: account.email, groups: [...account.groups].sort((a, b) => a - b) };
}

export function userRegisteredEvent(account: Account): EventEnvelope {
  return createEvent(
    UserRegistered,
    account.id,
    { userId: account.id, username: account.username, organisationId: account.organisationId, clientType: account.clientType, ...personDetails(account) },
    { correlationId: currentCorrelationId() },
  );
}

export function userUpdatedEvent(account: Account, options: { deleted?: boolean } = {}): EventEnvelope {
  return createEvent(
    UserUpdated,
    account.id,
    {
      userId: account.id,
      username: account.username,
      organisationId: account.organisationId,
      clientType: account.clientType,
      active: options.deleted ? false : account.active,
      ...personDetails(account),
      ...(options.deleted ? { deleted: true } : {}),
    },
    { correlationId: currentCorrelationId() },
  );
}

export function organisationUpdatedEvent(organisation: Organisation): EventEnvelope {
  return createEvent(
    OrganisationUpdated,
    organisation.id,
    { organisationId: organisation.id, name: organisation.name, description: organisation.description, email: organisation.email },
    { correlationId: currentCorrelationId() },
  );
}
