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

export interface UserAccount {
  id: Id;
  username: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  permissions?: string[];
  organisation?: Id | null;
  organisation_details?: OrganisationDetails | null;
  client_type?: ClientType | string;
  groups?: number[];
  active?: boolean;
  date_joined?: string;
}

export interface TokenResponse {
  token: string;
}

export interface MessageResponse {
  message?: string;
}

export interface RegisterRequest {
  username: string;
  password: string;
  password_confirm: string;
  email: string;
  first_name: string;
  last_name: string;
  description: string;
}

export interface PasswordCheckRequest {
  email: string;
  token: string;
  password: string;
  password_confirm: string;
}

export interface PasswordCheckResponse {
  message?: string;
  status?: unknown;
}

export interface Organisation {
  id: Id;
  name: string;
  email?: string;
  description?: string;
  userprofile_set?: Id[];
}

/** A sub-account of the organisation, as the Accounts tab lists and edits it. */
export interface Account {
  id: Id;
  username: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  client_type?: ClientType | string;
  groups?: number[];
  active?: boolean;
  date_joined?: string;
}

export interface NewAccountRequest {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirm: string;
  client_type: ClientType;
  groups: number[];
}

export interface ApiKeys {
  api_token: string | null;
  api_secret: string | null;
}

/** A paged list (architecture section 5). */
export interface Paged<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
