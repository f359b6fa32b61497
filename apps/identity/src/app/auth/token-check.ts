import { Injectable, OnModuleInit } from '@nestjs/common';
import { AuthUser, TokenChecks } from '@dc/platform';
import { isUuid } from '../accounts/account';
import { LoginRepository } from './login.repository';

/**
 * Makes a validly signed token stale as soon as its account changes in a way the token carries:
 * deleted or deactivated, a new password (password version), other groups, client type or
 * username. So the permissions in a current token are always the account's own. Runs in this
 * process for every service module it hosts (all of them in embedded mode).
 */
@Injectable()
export class CurrentAccountTokenCheck implements OnModuleInit {
  constructor(
    private readonly checks: TokenChecks,
    private readonly accounts: LoginRepository,
  ) {}

  onModuleInit(): void {
    this.checks.register((user) => this.isCurrent(user));
  }

  async isCurrent(user: AuthUser): Promise<boolean> {
    if (!isUuid(user.id)) return false;
    const account = await this.accounts.findById(user.id);
    if (!account || !account.active) return false;
    return (
      account.passwordVersion === user.passwordVersion &&
      account.clientType === user.clientType &&
      account.username === user.username &&
      account.organisationId === user.organisationId &&
      sameGroups(account.groups, user.groups)
    );
  }
}

const sameGroups = (a: number[], b: number[]) => {
  const sorted = (groups: number[]) => [...new Set(groups)].sort((x, y) => x - y).join(',');
  return sorted(a) === sorted(b);
};
