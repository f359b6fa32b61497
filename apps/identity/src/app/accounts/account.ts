import type { AccountClientType } from '@dc/contracts';

/** A user account as the services see it (the repositories map rows to it). */
export interface Account {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  description: string;
  passwordHash: string;
  passwordVersion: number;
  organisationId: string;
  clientType: AccountClientType;
  active: boolean;
  activatedAt: Date | null;
  groups: number[];
  dateJoined: Date;
}

export interface Organisation {
  id: string;
  name: string;
  email: string;
  description: string;
}

/** Ids in paths are UUIDs; anything else is simply not found (and never reaches a uuid cast). */
export const isUuid = (value: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export const fullName = (account: Pick<Account, 'firstName' | 'lastName'>): string => `${account.firstName} ${account.lastName}`.trim();
