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

export const fullName = (account: Pick<Account, 'firstName' | 'lastName'>): string => `${account.firstName} ${account.lastName}`.trim();
