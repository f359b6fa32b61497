import type { EventEnvelope } from './envelope';
import { OrganisationUpdated, UserRegistered, UserUpdated } from './catalog';

/** The identity event types every service's copy of users and organisations follows. */
export const DIRECTORY_USER_EVENTS = [UserRegistered.type, UserUpdated.type];
export const DIRECTORY_ORGANISATION_EVENTS = [OrganisationUpdated.type];

/** A user as identity's user.registered or user.updated describes it. */
export interface DirectoryUser {
  id: string;
  username: string;
  organisationId: string;
  clientType: 'STANDARD' | 'BASIC';
  firstName?: string;
  lastName?: string;
  email?: string;
  groups?: number[];
  active: boolean;
  deleted: boolean;
}

/** The user a user.* event describes: a new registration is not active until user.updated says it is. */
export function directoryUserOf(event: EventEnvelope): DirectoryUser {
  const payload =
    event.type === UserUpdated.type
      ? UserUpdated.payload.parse(event.payload)
      : { ...UserRegistered.payload.parse(event.payload), active: false, deleted: false };
  const { userId, deleted, ...rest } = payload;
  return { ...rest, id: userId, deleted: deleted ?? false };
}

/** The organisation an organisation.updated event describes. */
export function directoryOrganisationOf(event: EventEnvelope): { id: string; name: string; description: string } {
  const payload = OrganisationUpdated.payload.parse(event.payload);
  return { id: payload.organisationId, name: payload.name, description: payload.description };
}
