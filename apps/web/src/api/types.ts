import type { BodyOf, ResponseOf } from './typed';

/** Response shapes of the identity calls (spec sections 3 and 7, "User account", "Organisation"). */
export type ClientType = 'STANDARD' | 'BASIC';

/** Ids of users and organisations (UUIDs). */
export type Id = string;

export interface OrganisationDetails {
  id: Id;
  name: string;
  email?: string;
  description?: string;
}

/** The caller, as GET /api/account/user-account/ answers (from the OpenAPI document). */
export type UserAccount = ResponseOf<'/api/account/user-account', 'get'>;

export type TokenResponse = ResponseOf<'/api-token-auth', 'post'>;

export type MessageResponse = ResponseOf<'/api/password/confirm', 'post'>;

export type RegisterRequest = BodyOf<'/api/register', 'post'>;

export type PasswordCheckRequest = BodyOf<'/api/password/check', 'post'>;

export type PasswordCheckResponse = ResponseOf<'/api/password/check', 'post'>;

export type Organisation = ResponseOf<'/api/organisation/{id}', 'get'>;

/** A sub-account of the organisation, as the Accounts tab lists and edits it. */
export type Account = ResponseOf<'/api/account/{id}', 'get'>;

export type NewAccountRequest = BodyOf<'/api/account', 'post'>;

export type ApiKeys = ResponseOf<'/api/user-api-keys', 'get'>;

/** A paged list (architecture section 5). */
export interface Paged<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
